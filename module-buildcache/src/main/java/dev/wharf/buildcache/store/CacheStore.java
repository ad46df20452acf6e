package dev.wharf.buildcache.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.HeldFile;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The build cache's entries in one mount: where a key lives (its own name, or a digest of
 * it), how it is stored (as is, or deflated), and how the cache stays within bounds. On a
 * mount that can list its files a {@link CacheIndex} tracks every entry, evicts the least
 * recently used when the size budget would be passed or when the storage runs out of
 * space, and removes entries idle for longer than the maximum age: in this process,
 * rebuilt at start-up from the folder and a journal ({@link LocalCacheIndex}), or shared
 * by replicas in Redis. On a memcached mount memcached evicts by itself and there is no
 * index.
 *
 * <p>
 * Every method returns at once; the storage's own threads do the I/O, and compression
 * runs on a bounded worker pool. Thread-safe.
 */
public final class CacheStore implements AutoCloseable {

	/** Bytes freed at least when the storage reports that it is full. */
	private static final long MIN_SHRINK = 1024 * 1024;

	private static final Log logger = LogFactory.getLog(CacheStore.class);

	private final String mount;

	private final Storage storage;

	private final StoragePath folder;

	private final KeyDigest digest;

	private final long maxEntrySize;

	private final @Nullable Scheduler codec;

	private final @Nullable CacheIndex index;

	private final CacheMetrics metrics;

	private final boolean folders;

	private final HotEntries hot;

	/**
	 * Folders known to exist, so that most writes need no checks; emptied when it grows
	 * too big.
	 */
	private final Set<StoragePath> knownFolders = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the store with an index in this process; {@link #start()} prepares it.
	 * @param mount the mount's name, for messages
	 * @param storage the mount's storage
	 * @param settings where and how entries are kept
	 * @param metrics the cache's meters
	 * @param clock when entries are written and used
	 */
	public CacheStore(String mount, Storage storage, Settings settings, CacheMetrics metrics, Clock clock) {
		this(mount, storage, settings, metrics, LocalCacheIndex::new, clock);
	}

	/**
	 * Creates the store; {@link #start()} prepares it.
	 * @param mount the mount's name, for messages
	 * @param storage the mount's storage
	 * @param settings where and how entries are kept
	 * @param metrics the cache's meters
	 * @param indexes makes the index, on mounts that can list their files and with a size
	 * budget
	 * @param clock when entries are written and used
	 */
	public CacheStore(String mount, Storage storage, Settings settings, CacheMetrics metrics,
			CacheIndex.Factory indexes, Clock clock) {
		this.mount = mount;
		this.storage = storage;
		this.folder = settings.folder();
		this.digest = settings.digest();
		this.maxEntrySize = settings.maxEntrySize();
		this.metrics = metrics;
		this.folders = storage.capabilities().contains(Capability.DIRECTORIES);
		this.hot = new HotEntries(settings.hotEntries(), clock);
		this.codec = (settings.compression() == Compression.DEFLATE) ? BlockingScheduler
			.create("wharf-buildcache-deflate", Math.max(2, Runtime.getRuntime().availableProcessors()), 10_000) : null;
		if (settings.maxBytes() > 0 && storage.capabilities().contains(Capability.LIST)) {
			this.index = indexes.create(
					new CacheIndex.Settings(mount, storage, this.folder, settings.maxBytes(), settings.maxAge(), clock),
					this::evict);
			metrics.gauges(this.index);
		}
		else {
			this.index = null;
		}
	}

	/** The index, for tests; {@code null} when the backend evicts by itself. */
	@Nullable CacheIndex index() {
		return this.index;
	}

	/** The copies of small entries, for tests. */
	HotEntries hotEntries() {
		return this.hot;
	}

	/** Whether this store bounds itself with an index (otherwise the backend evicts). */
	public boolean isIndexed() {
		return this.index != null;
	}

	/**
	 * Creates the cache's folder and starts rebuilding the index and the periodic
	 * maintenance in the background.
	 * @return completes when the folder exists
	 */
	public Mono<Void> start() {
		Mono<Void> folder = (this.folders && !this.folder.isRoot()) ? this.storage.createDirectories(this.folder)
			.doOnNext(created -> this.knownFolders.add(this.folder))
			.then() : Mono.empty();
		return folder.doOnSuccess(done -> {
			if (this.index != null) {
				this.index.start();
			}
		});
	}

	/**
	 * Where a key's entry is in the mount.
	 * @param key the key
	 * @return the entry's path
	 */
	public StoragePath pathOf(CacheKey key) {
		if (this.digest == KeyDigest.NONE) {
			return this.folder.resolve(key.path());
		}
		String hex = HexFormat.of()
			.formatHex(this.digest.newDigest().digest(key.toString().getBytes(StandardCharsets.UTF_8)));
		return this.folder.resolve(hex.substring(0, 2)).resolve(hex);
	}

	/**
	 * Looks an entry up.
	 * @param key the key
	 * @param withContent whether the entry's bytes are wanted (GET) or only its length
	 * (HEAD)
	 * @return the entry, or empty on a miss
	 */
	public Mono<CacheEntry> get(CacheKey key, boolean withContent) {
		StoragePath path = pathOf(key);
		return Mono.defer(() -> {
			long since = this.hot.now();
			// Only a read of the bytes may keep a copy.
			long ticket = withContent ? this.hot.readTicket(path) : -1;
			return this.storage.stat(path).flatMap(entry -> found(path, entry, withContent, since, ticket));
		})
			.doOnNext(found -> hit(path))
			.switchIfEmpty(Mono.fromRunnable(this.metrics::miss))
			.onErrorResume(NotFoundException.class, missing -> {
				this.metrics.miss();
				this.hot.forget(path);
				// A miss stays a miss when the index cannot be told: the entry is
				// forgotten when it is evicted.
				return (this.index != null)
						? this.index.forget(path).onErrorResume(error -> Mono.empty()).then(Mono.empty())
						: Mono.empty();
			});
	}

	/**
	 * An entry that {@code stat} found: from its copy in memory if that still matches the
	 * file, else read (and copied if small).
	 */
	private Mono<CacheEntry> found(StoragePath path, FileEntry entry, boolean withContent, long since, long ticket) {
		if (!entry.isFile()) {
			return Mono.empty();
		}
		HotEntries.Copy copy = this.hot.checked(path, entry, since);
		if (copy != null) {
			return Mono.just(new CacheEntry(copy.length(),
					withContent
							? counted(Flux.<DataBuffer>just(DefaultDataBufferFactory.sharedInstance.wrap(copy.view())))
							: Flux.empty()));
		}
		Mono<CacheEntry> stored = (this.codec != null) ? deflated(path, entry, withContent)
				: Mono.just(new CacheEntry(entry.size(),
						withContent ? counted(this.storage.read(path, ByteRange.all())) : Flux.empty()));
		if (!withContent || ticket < 0) {
			return stored;
		}
		return stored.map(found -> this.hot.keeps(found.length())
				? new CacheEntry(found.length(), kept(path, entry, found, since, ticket)) : found);
	}

	/** An entry's bytes, joined into one buffer and kept in memory once read whole. */
	private Flux<DataBuffer> kept(StoragePath path, FileEntry stored, CacheEntry entry, long since, long ticket) {
		return DataBufferUtils.join(entry.content()).<DataBuffer>map(buffer -> {
			byte[] bytes = new byte[buffer.readableByteCount()];
			try {
				buffer.read(bytes);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
			// A file replaced while it was read may be shorter or longer: not kept.
			if (bytes.length == entry.length()) {
				this.hot.keep(path, ticket, stored, bytes, since);
			}
			return DefaultDataBufferFactory.sharedInstance.wrap(bytes);
		}).flux();
	}

	/**
	 * Looks an entry up at once, where the storage holds it in memory and it is stored as
	 * is, or a copy of it is held (see {@link HotEntries}): the same answer, meters and
	 * index use as {@link #get}, without its publishers, for the requests a client sends
	 * most. Runs on the caller's thread, which may be an event loop; never blocks and
	 * never throws for a missing entry.
	 * @param key the key
	 * @param withContent whether the entry's bytes are wanted (GET) or only its length
	 * (HEAD)
	 * @param maxLength the longest entry wanted this way
	 * @return the entry; {@code null} if it is not at hand (a miss, a deflated entry or
	 * one in a storage that keeps its files elsewhere without a fresh copy, a longer
	 * one), and then {@link #get} answers
	 */
	public @Nullable HeldEntry getAtHand(CacheKey key, boolean withContent, long maxLength) {
		StoragePath path = pathOf(key);
		HeldEntry found = null;
		if (this.codec == null) {
			if (withContent) {
				HeldFile file = this.storage.readAtHand(path, maxLength);
				found = (file != null) ? new HeldEntry(file.entry().size(), file.content()) : null;
			}
			else {
				FileEntry entry = this.storage.statAtHand(path);
				found = (entry != null) ? new HeldEntry(entry.size(), List.of()) : null;
			}
		}
		if (found == null && this.hot.isEnabled()) {
			HotEntries.Copy copy = this.hot.fresh(path);
			if (copy != null && copy.length() <= maxLength) {
				found = new HeldEntry(copy.length(), withContent ? List.of(copy.view()) : List.of());
			}
		}
		if (found == null) {
			return null;
		}
		hit(path);
		if (found.length() > 0 && withContent) {
			this.metrics.bytesOut(found.length());
		}
		return found;
	}

	/** An entry was found: its use is counted and told to the index. */
	private void hit(StoragePath path) {
		if (this.index != null) {
			this.index.touch(path);
		}
		this.metrics.hit();
	}

	private Mono<CacheEntry> deflated(StoragePath path, FileEntry entry, boolean withContent) {
		Scheduler scheduler = this.codec;
		if (scheduler == null || entry.size() < Deflating.TRAILER) {
			return Mono.empty();
		}
		long stored = entry.size() - Deflating.TRAILER;
		return DataBufferUtils.join(this.storage.read(path, ByteRange.of(stored, Deflating.TRAILER))).map(buffer -> {
			try {
				byte[] trailer = new byte[buffer.readableByteCount()];
				buffer.read(trailer);
				return Deflating.originalLength(trailer, this.maxEntrySize);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		})
			.map(length -> new CacheEntry(length,
					withContent ? counted(
							Deflating.inflate(this.storage.read(path, ByteRange.of(0, stored)), length, scheduler))
							: Flux.empty()));
	}

	private Flux<DataBuffer> counted(Flux<DataBuffer> content) {
		return content.doOnNext(buffer -> this.metrics.bytesOut(buffer.readableByteCount()));
	}

	/**
	 * Stores an entry, replacing any with the same key. The caller has checked an
	 * announced length against the maximum entry size; content of unannounced length is
	 * cut off at that size.
	 * @param key the key
	 * @param content the entry's bytes; every buffer is released
	 * @param length the announced length, or {@link WriteOptions#UNKNOWN_LENGTH}
	 * @return completes once the entry is stored; fails with
	 * {@link EntryTooLargeException} past the maximum entry size and with the storage's
	 * errors otherwise
	 */
	public Mono<Void> put(CacheKey key, Flux<DataBuffer> content, long length) {
		return Mono.defer(() -> {
			if (length > this.maxEntrySize) {
				return Mono.error(new EntryTooLargeException(this.maxEntrySize));
			}
			StoragePath path = pathOf(key);
			AtomicBoolean read = new AtomicBoolean();
			HotEntries.Write copy = this.hot.beginWrite(path, length);
			Flux<DataBuffer> bounded = bounded(content).doOnNext(copy::copy)
				.doOnSubscribe(subscription -> read.set(true));
			Flux<DataBuffer> stored = (this.codec != null) ? Deflating.deflate(bounded, this.codec) : bounded;
			WriteOptions options = new WriteOptions(WriteMode.REPLACE,
					(this.codec != null) ? WriteOptions.UNKNOWN_LENGTH : length);
			CacheIndex index = this.index;
			Mono<Void> room = (index != null && length >= 0) ? index.makeRoom(length) : Mono.empty();
			return room.then(parentOf(path))
				.then(this.storage.write(path, stored, options))
				.onErrorResume(NotFoundException.class, gone -> {
					// An eviction removed the folder just before the write began: make it
					// again and retry,
					// unless the body was already being read.
					if (read.get() || path.parent() == null) {
						return Mono.error(gone);
					}
					this.knownFolders.remove(path.parent());
					return parentOf(path).then(this.storage.write(path, stored, options));
				})
				.flatMap(written -> {
					this.metrics.put();
					if (index == null) {
						copy.stored(written);
						return Mono.<Void>empty();
					}
					// An entry the index cannot count would escape the size budget: it is
					// not kept.
					return index.record(path, written.size())
						.doOnSuccess(recorded -> copy.stored(written))
						.onErrorResume(unrecorded -> this.storage.delete(path, false)
							.onErrorResume(error -> Mono.empty())
							.then(Mono.error(unrecorded)));
				})
				.onErrorResume(QuotaExceededException.class,
						full -> (index != null) ? index.shrink(Math.max(MIN_SHRINK, length))
							.onErrorResume(error -> Mono.empty())
							.then(Mono.error(full)) : Mono.error(full))
				.then()
				// Ended before the caller hears of it, so that the copy is in place for
				// the client's next GET.
				.doOnSuccess(done -> this.hot.endWrite(copy))
				.doOnError(failed -> this.hot.endWrite(copy))
				.doOnCancel(() -> this.hot.endWrite(copy));
		});
	}

	private Flux<DataBuffer> bounded(Flux<DataBuffer> content) {
		return Flux.defer(() -> {
			long[] seen = { 0 };
			return content.doOnNext(buffer -> {
				seen[0] += buffer.readableByteCount();
				this.metrics.bytesIn(buffer.readableByteCount());
				if (seen[0] > this.maxEntrySize) {
					DataBufferUtils.release(buffer);
					throw new EntryTooLargeException(this.maxEntrySize);
				}
			});
		});
	}

	private Mono<Void> parentOf(StoragePath path) {
		StoragePath parent = path.parent();
		if (!this.folders || parent == null || parent.isRoot() || this.knownFolders.contains(parent)) {
			return Mono.empty();
		}
		return this.storage.createDirectories(parent).doOnNext(created -> {
			if (this.knownFolders.size() > 100_000) {
				this.knownFolders.clear();
			}
			this.knownFolders.add(parent);
		}).then();
	}

	private Mono<Void> evict(List<StoragePath> victims, String reason) {
		if (victims.isEmpty()) {
			return Mono.empty();
		}
		this.metrics.evicted(reason, victims.size());
		// Copies go before and after the file: a read that began before it was deleted
		// keeps none.
		victims.forEach(this.hot::forget);
		return Flux.fromIterable(victims)
			.flatMap(victim -> this.storage.delete(victim, false)
				.onErrorResume(NotFoundException.class, gone -> Mono.empty())
				.doFinally(signal -> this.hot.forget(victim))
				.then(removeEmptyFolder(victim.parent())), 4)
			.onErrorResume(error -> {
				logger.warn("Build cache on mount '" + this.mount + "': could not delete an evicted entry: "
						+ error.getMessage());
				return Mono.empty();
			})
			.then();
	}

	/**
	 * Removes the folder of a multi-name key once it is empty (Maven's checksum folders:
	 * one per build of a module), so that evicted keys leave nothing behind; a memory
	 * mount charges for every folder. The folders above it are shared by many keys and
	 * stay. A write into the folder at the same moment makes it again (see {@link #put}).
	 */
	private Mono<Void> removeEmptyFolder(@Nullable StoragePath folder) {
		if (!this.folders || folder == null || !folder.startsWith(this.folder) || folder.equals(this.folder)) {
			return Mono.empty();
		}
		this.knownFolders.remove(folder);
		return this.storage.delete(folder, false).onErrorResume(notEmptyOrGone -> Mono.empty());
	}

	/**
	 * Checks that the storage answers.
	 * @return completes if it does
	 */
	public Mono<Void> checkHealth() {
		return this.storage.checkHealth();
	}

	/** Stops the index's upkeep and saves it (waiting a few seconds at most). */
	@Override
	public void close() {
		if (this.index != null) {
			this.index.close();
		}
		if (this.codec != null) {
			this.codec.dispose();
		}
	}

	/**
	 * Where and how entries are kept.
	 *
	 * @param folder the folder in the mount
	 * @param digest whether keys are stored under a digest
	 * @param compression how entries are stored
	 * @param maxEntrySize the largest entry
	 * @param maxBytes the size budget of the index; 0 for none
	 * @param maxAge entries idle for longer are removed; 0 for never
	 * @param hotEntries the copies of small entries kept in memory
	 */
	public record Settings(StoragePath folder, KeyDigest digest, Compression compression, long maxEntrySize,
			long maxBytes, Duration maxAge, HotEntries.Settings hotEntries) {

		/**
		 * Settings without copies of entries in memory.
		 * @param folder the folder in the mount
		 * @param digest whether keys are stored under a digest
		 * @param compression how entries are stored
		 * @param maxEntrySize the largest entry
		 * @param maxBytes the size budget of the index; 0 for none
		 * @param maxAge entries idle for longer are removed; 0 for never
		 */
		public Settings(StoragePath folder, KeyDigest digest, Compression compression, long maxEntrySize, long maxBytes,
				Duration maxAge) {
			this(folder, digest, compression, maxEntrySize, maxBytes, maxAge, HotEntries.Settings.NONE);
		}

	}

}
