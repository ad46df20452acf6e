/**
 * Small JPEG previews of images, made off the event loop on a bounded pool and cached by size in memory.
 */
@NullMarked
package dev.wharf.filemanager.thumbnail;

import org.jspecify.annotations.NullMarked;
