/**
 * The {@code sftp} backend: a folder on an SSH server, through a bounded pool of sshj
 * connections per login.
 */
@NullMarked
package dev.wharf.core.storage.sftp;

import org.jspecify.annotations.NullMarked;
