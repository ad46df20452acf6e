/**
 * The session and API token endpoints: login, logout (also everywhere), who is logged in,
 * and tokens minted with the password.
 */
@NullMarked
package dev.wharf.filemanager.session;

import org.jspecify.annotations.NullMarked;
