/**
 * Micrometer metrics for every mount, recorded by a decorator around its storage.
 */
@NullMarked
package dev.wharf.core.storage.metrics;

import org.jspecify.annotations.NullMarked;
