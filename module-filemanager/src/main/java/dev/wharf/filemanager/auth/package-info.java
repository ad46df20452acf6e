/**
 * Who is calling: cookie sessions (with the X-Requested-With rule against CSRF) and API
 * tokens, and the session and token endpoints.
 */
@NullMarked
package dev.wharf.filemanager.auth;

import org.jspecify.annotations.NullMarked;
