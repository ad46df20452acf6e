/**
 * The build cache's entries in a mount: keys, storage format, eviction and metrics.
 */
@NullMarked
package dev.wharf.buildcache.store;

import org.jspecify.annotations.NullMarked;
