package dev.wharf.buildcache.store;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A cache entry found at once, its bytes at hand (see {@link CacheStore#getAtHand}).
 *
 * @param length the entry's length in bytes
 * @param content its bytes, in order: read-only views of the storage's memory, which are
 * not to be modified and need no release; empty when only the length was asked for
 */
public record HeldEntry(long length, List<ByteBuffer> content) {
}
