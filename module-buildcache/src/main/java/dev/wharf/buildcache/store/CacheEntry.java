package dev.wharf.buildcache.store;

import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;

/**
 * A cache entry that was found.
 *
 * @param length the entry's length in bytes, as the client stored it
 * @param content its bytes, read on subscription (empty when only the length was asked
 * for); the subscriber releases every buffer
 */
public record CacheEntry(long length, Flux<DataBuffer> content) {
}
