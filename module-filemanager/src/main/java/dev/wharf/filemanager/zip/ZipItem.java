package dev.wharf.filemanager.zip;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;

/**
 * One thing asked for in a zip: a file or folder of a mount, and the name it gets at the
 * top of the zip.
 *
 * @param storage the user's view of its mount
 * @param entry the file or folder
 * @param name its top-level name in the zip
 */
record ZipItem(Storage storage, FileEntry entry, String name) {
}
