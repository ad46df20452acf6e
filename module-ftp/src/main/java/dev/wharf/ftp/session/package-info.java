/**
 * Per-session state Wharf adds to Apache FtpServer's sessions: the command queue, asynchronous operations and
 * the data connection set-up.
 */
@NullMarked
package dev.wharf.ftp.session;

import org.jspecify.annotations.NullMarked;
