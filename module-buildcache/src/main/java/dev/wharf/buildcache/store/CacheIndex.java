package dev.wharf.buildcache.store;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import reactor.core.publisher.Mono;

/**
 * Every entry of a cache with its size and last use, so the cache stays within
 * {@code max-size} and {@code max-age}: it decides which entries go, least recently used
 * first, and has them deleted through an {@link Evictor}. In this process with a journal
 * in the cache's folder ({@link LocalCacheIndex}, one replica) or in Redis, shared by
 * every replica writing into the same folder ({@link RedisCacheIndex}).
 *
 * <p>
 * Each entry counts {@link LruIndex#ENTRY_CHARGE} bytes beyond its content against the
 * budget.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller (often a
 * Netty event loop); {@link #close()} alone may wait a few seconds, at shutdown.
 * Implementations are thread-safe. <b>Nulls.</b> No argument may be {@code null}. A
 * shared implementation fails its {@code Mono}s with
 * {@link dev.wharf.core.state.SharedStateUnavailableException} when its store cannot be
 * reached.
 */
public interface CacheIndex extends AutoCloseable {

	/**
	 * Loads or rebuilds the index in the background, and starts its periodic upkeep (idle
	 * entries, saving).
	 */
	void start();

	/**
	 * Marks an entry as just used, if it is known. Never fails: a use that cannot be
	 * recorded is lost.
	 * @param path the entry
	 */
	void touch(StoragePath path);

	/**
	 * Makes room for a write of a known size: least recently used entries go until the
	 * entries and the new one fit the budget. An entry larger than the whole budget
	 * removes nothing.
	 * @param incoming the new entry's size
	 * @return completes once the write may go ahead (deleting the evicted entries may
	 * still be going on)
	 */
	Mono<Void> makeRoom(long incoming);

	/**
	 * Records a written entry (replacing what the index knew of it); least recently used
	 * others go if the budget is passed, never the entry itself.
	 * @param path the entry
	 * @param size its stored size
	 * @return completes once recorded
	 */
	Mono<Void> record(StoragePath path, long size);

	/**
	 * Forgets an entry that turned out to be gone.
	 * @param path the entry
	 * @return completes once forgotten
	 */
	Mono<Void> forget(StoragePath path);

	/**
	 * Removes least recently used entries worth at least some bytes, after the storage
	 * ran out of space.
	 * @param wanted bytes to free
	 * @return completes once the entries are chosen
	 */
	Mono<Void> shrink(long wanted);

	/** The number of entries, as last known (for a gauge). */
	long entries();

	/** Bytes of all entries with their charges, as last known (for a gauge). */
	long bytes();

	/** The byte budget. */
	long maxBytes();

	/** Stops the upkeep and saves what needs saving, waiting a few seconds at most. */
	@Override
	void close();

	/** Deletes the entries an index chose, and counts them. */
	@FunctionalInterface
	interface Evictor {

		/**
		 * Deletes entries from the storage.
		 * @param victims the entries
		 * @param reason {@code size}, {@code age} or {@code space}, for the metrics
		 * @return completes when they are gone; never fails
		 */
		Mono<Void> evict(List<StoragePath> victims, String reason);

	}

	/**
	 * Where the entries are and what bounds them.
	 *
	 * @param mount the mount's name, for messages and keys
	 * @param storage the mount's storage
	 * @param folder the cache's folder in the mount
	 * @param maxBytes the byte budget
	 * @param maxAge entries unused for longer go; zero for never
	 * @param clock when entries are written and used: the system clock, or one tests move
	 * by hand
	 */
	record Settings(String mount, Storage storage, StoragePath folder, long maxBytes, Duration maxAge, Clock clock) {
	}

	/** Makes an index for a cache. */
	@FunctionalInterface
	interface Factory {

		/**
		 * Makes the index.
		 * @param settings where the entries are and what bounds them
		 * @param evictor deletes what the index chooses
		 * @return the index, not started
		 */
		CacheIndex create(Settings settings, Evictor evictor);

	}

}
