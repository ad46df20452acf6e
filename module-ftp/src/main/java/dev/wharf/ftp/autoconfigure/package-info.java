/**
 * Auto-configuration of the FTP and FTPS server.
 */
@NullMarked
package dev.wharf.ftp.autoconfigure;

import org.jspecify.annotations.NullMarked;
