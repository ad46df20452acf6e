/**
 * The storage SPI: paths, entries, capabilities, errors and the
 * {@link dev.wharf.core.storage.Storage} contract every backend implements.
 */
@NullMarked
package dev.wharf.core.storage;

import org.jspecify.annotations.NullMarked;
