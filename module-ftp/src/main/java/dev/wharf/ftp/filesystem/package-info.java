/**
 * FTP file systems on the storage layer: each user's mounts and path parsing.
 */
@NullMarked
package dev.wharf.ftp.filesystem;

import org.jspecify.annotations.NullMarked;
