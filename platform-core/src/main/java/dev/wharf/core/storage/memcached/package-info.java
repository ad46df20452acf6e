/**
 * The {@code memcached} backend: files as items in one or more memcached servers, with
 * consistent hashing and chunking.
 */
@NullMarked
package dev.wharf.core.storage.memcached;

import org.jspecify.annotations.NullMarked;
