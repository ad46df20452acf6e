/**
 * FTP file systems on the storage layer: each user's mounts, path parsing and Apache FtpServer's file API.
 */
@NullMarked
package dev.wharf.ftp.filesystem;

import org.jspecify.annotations.NullMarked;
