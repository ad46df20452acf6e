/**
 * Small JPEG previews of images, made off the event loop on a bounded pool (JPEGs decoded
 * scaled down by libjpeg-turbo where it is installed), also in the background after an
 * upload, kept in their mount's reserved folder and cached by size in memory.
 */
@NullMarked
package dev.wharf.filemanager.thumbnail;

import org.jspecify.annotations.NullMarked;
