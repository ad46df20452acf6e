/**
 * FTP data connections on Netty: passive ports shared by sessions, active-mode
 * connections, TLS, and transfers without a thread per transfer.
 */
@NullMarked
package dev.wharf.ftp.data;

import org.jspecify.annotations.NullMarked;
