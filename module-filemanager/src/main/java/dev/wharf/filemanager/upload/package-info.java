/**
 * Resumable uploads (tus 1.0 with the checksum extension) whose state lives in the mount,
 * so any replica can resume them.
 */
@NullMarked
package dev.wharf.filemanager.upload;

import org.jspecify.annotations.NullMarked;
