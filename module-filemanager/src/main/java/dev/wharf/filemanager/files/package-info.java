/**
 * The file endpoints (list, download, save, move, copy, delete, create) over the mounts a
 * user may see, each a top-level folder.
 */
@NullMarked
package dev.wharf.filemanager.files;

import org.jspecify.annotations.NullMarked;
