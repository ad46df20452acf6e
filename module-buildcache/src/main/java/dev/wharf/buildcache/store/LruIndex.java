package dev.wharf.buildcache.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;

/**
 * Every entry of a cache with its size and last use, in least-recently-used order,
 * bounded by a byte budget and a maximum idle age. The index decides what to evict; the
 * caller deletes it. Strict LRU (not a frequency sketch) so that what goes first is
 * predictable and the order can be saved and restored.
 *
 * <p>
 * Each entry counts {@value #ENTRY_CHARGE} bytes beyond its content against the budget:
 * that is about what an entry costs in bookkeeping (the index's own, and a memory mount's
 * nodes), so a cache of many tiny entries stays within the heap it was sized for.
 *
 * <p>
 * Thread-safe: every method holds the index's lock for a short, allocation-light step.
 */
final class LruIndex {

	/** Bytes each entry counts beyond its content. */
	static final long ENTRY_CHARGE = 512;

	private final long maxBytes;

	private final long maxIdleMillis;

	private final LongSupplier clock;

	private final LinkedHashMap<StoragePath, Entry> entries = new LinkedHashMap<>(1024, 0.75f, true);

	private long bytes;

	/**
	 * The entries removed (forgotten, evicted or expired) since start-up, until the
	 * entries found then are restored; null after. The scan that finds them may have seen
	 * such an entry's file before it was deleted, and restoring it would count a file
	 * that is gone (and keep an evicted one's bytes against the budget) until it is read
	 * again.
	 */
	private @Nullable Set<StoragePath> removedBeforeRestore = new HashSet<>();

	/**
	 * Creates an empty index.
	 * @param maxBytes the byte budget
	 * @param maxIdleMillis entries unused for longer expire; 0 for never
	 * @param clock the time, in epoch milliseconds
	 */
	LruIndex(long maxBytes, long maxIdleMillis, LongSupplier clock) {
		this.maxBytes = maxBytes;
		this.maxIdleMillis = maxIdleMillis;
		this.clock = clock;
	}

	/** The byte budget. */
	long maxBytes() {
		return this.maxBytes;
	}

	/** Bytes of all entries, with their charges. */
	synchronized long bytes() {
		return this.bytes;
	}

	/** Number of entries. */
	synchronized int size() {
		return this.entries.size();
	}

	/**
	 * Marks an entry as just used, if it is known.
	 * @param path the entry
	 */
	synchronized void touch(StoragePath path) {
		Entry entry = this.entries.get(path);
		if (entry != null) {
			entry.lastUsed = this.clock.getAsLong();
		}
	}

	/**
	 * Makes room for a write of a known size: removes least recently used entries until
	 * the entries and the new one fit the budget. An entry larger than the whole budget
	 * removes nothing.
	 * @param incoming the new entry's size
	 * @return the removed entries, for the caller to delete
	 */
	synchronized List<StoragePath> makeRoom(long incoming) {
		if (incoming + ENTRY_CHARGE > this.maxBytes) {
			return List.of();
		}
		return evictUntil(this.maxBytes - incoming - ENTRY_CHARGE);
	}

	/**
	 * Records a written entry (replacing what the index knew of it) and removes least
	 * recently used others if the budget is passed.
	 * @param path the entry
	 * @param size its stored size
	 * @return the removed entries, for the caller to delete
	 */
	synchronized List<StoragePath> record(StoragePath path, long size) {
		Entry previous = this.entries.put(path, new Entry(size + ENTRY_CHARGE, this.clock.getAsLong()));
		this.bytes += size + ENTRY_CHARGE - ((previous != null) ? previous.weight : 0);
		return evictUntil(this.maxBytes, path);
	}

	/**
	 * Adds the entries found on start-up as older than every entry used since (which win
	 * over what was found), except those removed since start-up, then removes what passes
	 * the budget. Called once; {@code restore(List.of())} when nothing could be found.
	 * @param found the entries found, in any order
	 * @return the removed entries, for the caller to delete
	 */
	synchronized List<StoragePath> restore(List<Snapshot> found) {
		Set<StoragePath> tracked = this.removedBeforeRestore;
		Set<StoragePath> removed = (tracked != null) ? tracked : Set.of();
		this.removedBeforeRestore = null;
		List<Snapshot> sorted = new ArrayList<>(found);
		sorted.sort(Comparator.comparingLong(Snapshot::lastUsed));
		LinkedHashMap<StoragePath, Entry> since = new LinkedHashMap<>(this.entries);
		this.entries.clear();
		this.bytes = 0;
		for (Snapshot snapshot : sorted) {
			if (!since.containsKey(snapshot.path()) && !this.entries.containsKey(snapshot.path())
					&& !removed.contains(snapshot.path())) {
				this.entries.put(snapshot.path(), new Entry(snapshot.size() + ENTRY_CHARGE, snapshot.lastUsed()));
				this.bytes += snapshot.size() + ENTRY_CHARGE;
			}
		}
		since.forEach((path, entry) -> {
			this.entries.put(path, entry);
			this.bytes += entry.weight;
		});
		return evictUntil(this.maxBytes);
	}

	/**
	 * Forgets an entry that turned out to be gone.
	 * @param path the entry
	 */
	synchronized void forget(StoragePath path) {
		Entry removed = this.entries.remove(path);
		if (removed != null) {
			this.bytes -= removed.weight;
		}
		removedBeforeRestore(path);
	}

	/**
	 * Removes least recently used entries worth at least some bytes, after the storage
	 * ran out of space.
	 * @param wanted bytes to free
	 * @return the removed entries
	 */
	synchronized List<StoragePath> shrink(long wanted) {
		return evictUntil(Math.max(0, this.bytes - wanted));
	}

	/**
	 * Removes the entries unused for longer than the maximum idle age.
	 * @return the removed entries
	 */
	synchronized List<StoragePath> expire() {
		if (this.maxIdleMillis <= 0) {
			return List.of();
		}
		long limit = this.clock.getAsLong() - this.maxIdleMillis;
		List<StoragePath> removed = new ArrayList<>();
		// Access order: the eldest entries come first, so the scan stops at the first
		// fresh one.
		Iterator<Map.Entry<StoragePath, Entry>> it = this.entries.entrySet().iterator();
		while (it.hasNext()) {
			Map.Entry<StoragePath, Entry> next = it.next();
			if (next.getValue().lastUsed > limit) {
				break;
			}
			this.bytes -= next.getValue().weight;
			removed.add(next.getKey());
			removedBeforeRestore(next.getKey());
			it.remove();
		}
		return removed;
	}

	/**
	 * The entries from least to most recently used, for saving.
	 * @return path, size and last use of each
	 */
	synchronized List<Snapshot> snapshot() {
		List<Snapshot> snapshot = new ArrayList<>(this.entries.size());
		this.entries
			.forEach((path, entry) -> snapshot.add(new Snapshot(path, entry.weight - ENTRY_CHARGE, entry.lastUsed)));
		return snapshot;
	}

	private void removedBeforeRestore(StoragePath path) {
		Set<StoragePath> removed = this.removedBeforeRestore;
		if (removed != null) {
			removed.add(path);
		}
	}

	private List<StoragePath> evictUntil(long target, StoragePath... keep) {
		if (this.bytes <= target) {
			return List.of();
		}
		List<StoragePath> removed = new ArrayList<>();
		Iterator<Map.Entry<StoragePath, Entry>> it = this.entries.entrySet().iterator();
		while (this.bytes > target && it.hasNext()) {
			Map.Entry<StoragePath, Entry> next = it.next();
			if (keep.length > 0 && next.getKey().equals(keep[0])) {
				continue;
			}
			this.bytes -= next.getValue().weight;
			removed.add(next.getKey());
			removedBeforeRestore(next.getKey());
			it.remove();
		}
		return removed;
	}

	/**
	 * One entry as saved.
	 *
	 * @param path the entry
	 * @param size its stored size
	 * @param lastUsed its last use, epoch milliseconds
	 */
	record Snapshot(StoragePath path, long size, long lastUsed) {
	}

	private static final class Entry {

		/** The content's size plus the entry charge. */
		private final long weight;

		private long lastUsed;

		Entry(long weight, long lastUsed) {
			this.weight = weight;
			this.lastUsed = lastUsed;
		}

	}

}
