/**
 * The FTP server as the application sees it: its checked configuration and its lifecycle
 * (threads, data connections, the engine).
 */
@NullMarked
package dev.wharf.ftp.server;

import org.jspecify.annotations.NullMarked;
