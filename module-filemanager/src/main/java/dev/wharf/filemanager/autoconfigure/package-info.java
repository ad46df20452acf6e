/**
 * Auto-configuration of the file manager (Filestash-compatible API and web UI).
 */
@NullMarked
package dev.wharf.filemanager.autoconfigure;

import org.jspecify.annotations.NullMarked;
