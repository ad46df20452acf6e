/**
 * Folders and files downloaded as one zip, streamed, with failures listed in an error.log
 * entry.
 */
@NullMarked
package dev.wharf.filemanager.zip;

import org.jspecify.annotations.NullMarked;
