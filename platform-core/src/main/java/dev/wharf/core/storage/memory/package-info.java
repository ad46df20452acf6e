/**
 * The {@code memory} backend: files and folders in the heap, bounded by a size cap.
 */
@NullMarked
package dev.wharf.core.storage.memory;

import org.jspecify.annotations.NullMarked;
