/**
 * The FTP server: Apache FtpServer's control protocol with Wharf's listener, line decoder, command dispatch
 * and connection limits.
 */
@NullMarked
package dev.wharf.ftp.server;

import org.jspecify.annotations.NullMarked;
