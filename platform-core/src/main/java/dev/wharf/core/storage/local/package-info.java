/**
 * The {@code local} backend: a folder on this host, with atomic writes and no way out of
 * its root.
 */
@NullMarked
package dev.wharf.core.storage.local;

import org.jspecify.annotations.NullMarked;
