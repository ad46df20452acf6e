/**
 * Per-session state of an FTP control connection: the command queue, asynchronous
 * operations, the data connection set-up, the logged-in user, and the command lines and
 * replies themselves.
 */
@NullMarked
package dev.wharf.ftp.session;

import org.jspecify.annotations.NullMarked;
