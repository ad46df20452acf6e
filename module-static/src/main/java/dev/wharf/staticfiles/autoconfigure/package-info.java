/**
 * Auto-configuration of the static file server.
 */
@NullMarked
package dev.wharf.staticfiles.autoconfigure;

import org.jspecify.annotations.NullMarked;
