/**
 * Small JPEG previews of images, made off the event loop on a bounded pool (JPEGs decoded scaled down by
 * libjpeg-turbo where it is installed) and cached by size in memory.
 */
@NullMarked
package dev.wharf.filemanager.thumbnail;

import org.jspecify.annotations.NullMarked;
