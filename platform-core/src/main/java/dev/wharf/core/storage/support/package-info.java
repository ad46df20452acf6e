/**
 * Helpers for backends that do blocking I/O: reading and writing channels on a bounded
 * scheduler.
 */
@NullMarked
package dev.wharf.core.storage.support;

import org.jspecify.annotations.NullMarked;
