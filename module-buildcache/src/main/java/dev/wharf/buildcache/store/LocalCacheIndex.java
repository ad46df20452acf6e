package dev.wharf.buildcache.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.wharf.core.storage.StoragePath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@link CacheIndex} of one replica: an {@link LruIndex} in memory, rebuilt at
 * start-up from the folder and a journal ({@link IndexJournal}) that is saved every
 * {@link #SAVE_EVERY} while the index changes and at shutdown. Every operation runs on
 * the subscribing thread in microseconds; evicted entries are deleted in the background.
 * Thread-safe.
 */
public final class LocalCacheIndex implements CacheIndex {

	/** How often idle entries are looked for. */
	static final Duration TICK = Duration.ofSeconds(10);

	/** How often the index is saved while it changes. */
	static final Duration SAVE_EVERY = Duration.ofMinutes(5);

	private static final Log logger = LogFactory.getLog(LocalCacheIndex.class);

	private final String mount;

	private final LruIndex index;

	private final IndexJournal journal;

	private final Evictor evictor;

	private final AtomicBoolean changed = new AtomicBoolean();

	private volatile @Nullable Disposable maintenance;

	/**
	 * Creates the index, empty until {@link #start()}.
	 * @param settings where the entries are and what bounds them
	 * @param evictor deletes what the index chooses
	 */
	public LocalCacheIndex(Settings settings, Evictor evictor) {
		this.mount = settings.mount();
		this.index = new LruIndex(settings.maxBytes(), settings.maxAge().toMillis(), settings.clock()::millis);
		this.journal = new IndexJournal(settings.storage(), settings.folder());
		this.evictor = evictor;
	}

	/** The index itself, for tests. */
	LruIndex lru() {
		return this.index;
	}

	@Override
	public void start() {
		this.journal.load().subscribe(found -> {
			evict(this.index.restore(found), "size");
			logger.info("Build cache on mount '" + this.mount + "': " + this.index.size() + " entries, "
					+ (this.index.bytes() >> 20) + " MB of " + (this.index.maxBytes() >> 20) + " MB");
		}, error -> {
			this.index.restore(List.of());
			logger.warn("Build cache on mount '" + this.mount + "': could not read its entries (" + error.getMessage()
					+ "); entries written from now on are tracked");
		});
		long savesEvery = SAVE_EVERY.toMillis() / TICK.toMillis();
		this.maintenance = Flux.interval(TICK, TICK).concatMap(n -> {
			evict(this.index.expire(), "age");
			return (n % savesEvery == savesEvery - 1) ? save() : Mono.empty();
		}).subscribe();
	}

	@Override
	public void touch(StoragePath path) {
		this.index.touch(path);
		// Read first: hits are frequent, and a write on every one would bounce the cache
		// line.
		if (!this.changed.get()) {
			this.changed.set(true);
		}
	}

	@Override
	public Mono<Void> makeRoom(long incoming) {
		return Mono.fromRunnable(() -> evict(this.index.makeRoom(incoming), "size"));
	}

	@Override
	public Mono<Void> record(StoragePath path, long size) {
		return Mono.fromRunnable(() -> {
			evict(this.index.record(path, size), "size");
			this.changed.set(true);
		});
	}

	@Override
	public Mono<Void> forget(StoragePath path) {
		return Mono.fromRunnable(() -> this.index.forget(path));
	}

	@Override
	public Mono<Void> shrink(long wanted) {
		return Mono.fromRunnable(() -> evict(this.index.shrink(wanted), "space"));
	}

	@Override
	public long entries() {
		return this.index.size();
	}

	@Override
	public long bytes() {
		return this.index.bytes();
	}

	@Override
	public long maxBytes() {
		return this.index.maxBytes();
	}

	private void evict(List<StoragePath> victims, String reason) {
		if (!victims.isEmpty()) {
			this.changed.set(true);
			this.evictor.evict(victims, reason).subscribe();
		}
	}

	private Mono<Void> save() {
		if (!this.changed.getAndSet(false)) {
			return Mono.empty();
		}
		return this.journal.save(this.index.snapshot()).onErrorResume(error -> {
			this.changed.set(true);
			logger.warn("Build cache on mount '" + this.mount + "': could not save its index: " + error.getMessage());
			return Mono.empty();
		});
	}

	@Override
	public void close() {
		Disposable running = this.maintenance;
		if (running != null) {
			running.dispose();
		}
		try {
			save().block(Duration.ofSeconds(10));
		}
		catch (RuntimeException ex) {
			logger.warn("Build cache on mount '" + this.mount + "': could not save its index: " + ex.getMessage());
		}
	}

}
