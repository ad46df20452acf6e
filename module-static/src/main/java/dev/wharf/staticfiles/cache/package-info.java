/**
 * A bounded cache of resolved files (and small files' bytes), invalidated when the files
 * change.
 */
@NullMarked
package dev.wharf.staticfiles.cache;

import org.jspecify.annotations.NullMarked;
