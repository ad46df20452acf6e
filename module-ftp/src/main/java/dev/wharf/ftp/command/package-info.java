/**
 * Wharf's FTP commands: logins, files and folders, data connection set-up and transfers
 * over the storage layer, none of them holding a thread while the storage or the network
 * works.
 */
@NullMarked
package dev.wharf.ftp.command;

import org.jspecify.annotations.NullMarked;
