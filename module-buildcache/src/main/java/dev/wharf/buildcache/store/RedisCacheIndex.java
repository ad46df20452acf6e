package dev.wharf.buildcache.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import dev.wharf.core.state.Locks;
import dev.wharf.core.state.Locks.Lock;
import dev.wharf.core.state.redis.RedisState;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@link CacheIndex} of every replica writing into one cache folder, in Redis, so
 * that replicas neither evict each other's entries blindly nor overwrite each other's
 * journal, and {@code max-size} holds for all of them together.
 *
 * <p>
 * <b>Keys</b> ({@code <cache>} is {@code <prefix>buildcache:<mount><folder>}):
 * {@code <cache>:lru}, the entries by last use (a sorted set of paths scored by epoch
 * milliseconds); {@code <cache>:sizes}, each entry's weight (its size plus
 * {@link LruIndex#ENTRY_CHARGE}); {@code <cache>:bytes}, the total weight;
 * {@code <cache>:built}, present once the index was built from the folder. Recording,
 * forgetting, evicting, expiring and adopting entries are one script each, so the three
 * keys always agree.
 *
 * <p>
 * <b>Eviction</b> is done by one replica at a time, under the lock
 * {@code buildcache:<mount><folder>:evicting} ({@link Locks}, with an expiry, so a
 * replica killed while evicting lets go of it): the holder takes the least recently used
 * entries out of the index in batches (a script, so no entry is taken twice) and deletes
 * their files, then releases the lock and looks at the total again, so a write that
 * passed the budget while the lock was held (its own attempt to evict having found the
 * lock taken) is evicted too. After every write the total is therefore back within
 * {@code max-size} once the evicting replica is done; between a write and that, it can be
 * over by the entries being written at that moment. A write of a known size first has the
 * entries that make room for it taken out of the index (their files are deleted in the
 * background); a replica whose write passes the budget evicts in the background; the
 * write's answer waits for neither deletion.
 *
 * <p>
 * <b>Uses</b> (reads) are collected in memory and written once a second in one script, so
 * reads cost Redis nothing per request; a use lost to a crash only makes its entry look a
 * second older. <b>Building</b>: when {@code <cache>:built} is missing (first start, or a
 * Redis that lost its data), one replica (under the lock
 * {@code buildcache:<mount><folder>:building}) lists the folder, reads the last uses an
 * earlier in-process index saved ({@link IndexJournal}), adds the entries the index does
 * not know, and sets it. Every {@link #TICK} each replica checks that, removes entries
 * idle past {@code max-age} (under the eviction lock) and evicts if the total is over the
 * budget.
 *
 * <p>
 * Thread-safe; never blocks. Operations fail with
 * {@link dev.wharf.core.state.SharedStateUnavailableException} while Redis cannot be
 * reached; uses and upkeep then wait for it.
 */
public final class RedisCacheIndex implements CacheIndex {

	/** How often the index is checked: built, idle entries, over budget. */
	static final Duration TICK = Duration.ofSeconds(10);

	/** How often collected uses are written. */
	public static final Duration USES_EVERY = Duration.ofSeconds(1);

	/**
	 * How long the eviction and building locks outlive their holder's last sign of life.
	 */
	static final Duration LOCK_TIME = Duration.ofSeconds(30);

	/** Entries taken out of the index per script run. */
	static final int BATCH = 200;

	/** Uses kept for the next write at most; past it, uses are dropped until then. */
	private static final int MAX_PENDING_USES = 100_000;

	private static final Log logger = LogFactory.getLog(RedisCacheIndex.class);

	private static final RedisScript<Long> RECORD = script("index-record", Long.class);

	private static final RedisScript<Long> FORGET = script("index-forget", Long.class);

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> EVICT = script("index-evict", List.class);

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> EXPIRE = script("index-expire", List.class);

	private static final RedisScript<Long> ADOPT = script("index-adopt", Long.class);

	private static final RedisScript<Long> TOUCH = script("index-touch", Long.class);

	private final Settings settings;

	private final Evictor evictor;

	private final RedisState state;

	private final Locks locks;

	private final Duration usesEvery;

	private final List<String> keys;

	private final String built;

	private final String evicting;

	private final String building;

	private final ConcurrentMap<String, Long> uses = new ConcurrentHashMap<>();

	private volatile long entries;

	private volatile long bytes;

	private volatile @Nullable Disposable upkeep;

	private volatile @Nullable Disposable touching;

	/**
	 * Creates the index; {@link #start()} starts its upkeep.
	 * @param settings where the entries are and what bounds them
	 * @param evictor deletes what the index chooses
	 * @param state the Redis client and key prefix
	 * @param locks where the eviction and building locks are taken (shared by replicas)
	 * @param usesEvery how often the uses collected are written ({@link #USES_EVERY})
	 */
	public RedisCacheIndex(Settings settings, Evictor evictor, RedisState state, Locks locks, Duration usesEvery) {
		this.settings = settings;
		this.evictor = evictor;
		this.state = state;
		this.locks = locks;
		this.usesEvery = usesEvery;
		String cache = "buildcache:" + settings.mount() + settings.folder();
		this.keys = List.of(state.key(cache, "lru"), state.key(cache, "sizes"), state.key(cache, "bytes"));
		this.built = state.key(cache, "built");
		this.evicting = cache + ":evicting";
		this.building = cache + ":building";
	}

	private static <T> RedisScript<T> script(String name, Class<T> type) {
		return RedisState.script(RedisCacheIndex.class, name, type);
	}

	@Override
	public void start() {
		this.touching = Flux.interval(this.usesEvery, this.usesEvery)
			.onBackpressureDrop()
			.concatMap(tick -> writeUses().onErrorResume(error -> Mono.empty()), 1)
			.subscribe();
		this.upkeep = Flux.interval(Duration.ZERO, TICK)
			.onBackpressureDrop()
			.concatMap(tick -> upkeep().onErrorResume(error -> {
				logger.debug("Build cache on mount '" + this.settings.mount() + "': upkeep failed", error);
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	/** One round of upkeep: built, idle entries, over budget, gauges. */
	Mono<Void> upkeep() {
		return build().then(expire()).then(evictTo(this.settings.maxBytes(), "size", 0)).then(refresh());
	}

	@Override
	public void touch(StoragePath path) {
		if (this.uses.size() < MAX_PENDING_USES) {
			this.uses.merge(path.toString(), this.settings.clock().millis(), Math::max);
		}
	}

	@Override
	public Mono<Void> makeRoom(long incoming) {
		long weight = incoming + LruIndex.ENTRY_CHARGE;
		if (weight > this.settings.maxBytes()) {
			return Mono.empty();
		}
		// The entries that go are chosen before the write goes ahead and deleted in the
		// background. Chosen later,
		// they would be chosen with the new entry already recorded: one entry too many
		// would go.
		return total()
			.flatMap(
					total -> (total + weight > this.settings.maxBytes())
							? underEvictionLock(lock -> this.state
								.run(EVICT, this.keys,
										List.of(Long.toString(this.settings.maxBytes() - weight),
												Integer.toString(BATCH)))
								.collectList()
								.doOnNext(reply -> background(this.evictor.evict(paths(reply), "size")))
								.then())
							: Mono.empty())
			.then();
	}

	@Override
	public Mono<Void> record(StoragePath path, long size) {
		return Mono.defer(() -> this.state
			.run(RECORD, this.keys, List.of(path.toString(), Long.toString(size + LruIndex.ENTRY_CHARGE),
					Long.toString(this.settings.clock().millis())))
			.next()
			.doOnNext(total -> {
				this.bytes = total;
				if (total > this.settings.maxBytes()) {
					background(evictTo(this.settings.maxBytes(), "size", 0));
				}
			})
			.then());
	}

	@Override
	public Mono<Void> forget(StoragePath path) {
		return Mono.defer(() -> this.state.run(FORGET, this.keys, List.of(path.toString())).then());
	}

	@Override
	public Mono<Void> shrink(long wanted) {
		return total().doOnNext(total -> background(evictTo(Math.max(0, total - wanted), "space", 0))).then();
	}

	@Override
	public long entries() {
		return this.entries;
	}

	@Override
	public long bytes() {
		return this.bytes;
	}

	@Override
	public long maxBytes() {
		return this.settings.maxBytes();
	}

	private Mono<Long> total() {
		return this.state.guard(this.state.redis().opsForValue().get(this.keys.get(2)))
			.map(Long::parseLong)
			.defaultIfEmpty(0L);
	}

	/**
	 * Evicts down to a target if this replica can take the eviction lock, then, with the
	 * lock released, looks at the total again: a replica whose write passed the budget
	 * while the lock was held relies on that.
	 */
	private Mono<Void> evictTo(long target, String reason, int round) {
		return underEvictionLock(lock -> take(lock, EVICT, Long.toString(target), reason))
			.flatMap(
					done -> (round < 3)
							? total().flatMap(total -> (total > this.settings.maxBytes())
									? evictTo(this.settings.maxBytes(), "size", round + 1) : Mono.empty())
							: Mono.empty());
	}

	/**
	 * Runs work under the eviction lock if this replica can take it, and releases the
	 * lock however the work ends: cancelled too (an index closed during its upkeep), or
	 * other replicas could not evict until it ran out.
	 * @return {@code true} once the work is done; empty if another replica holds the lock
	 */
	private Mono<Boolean> underEvictionLock(Function<Lock, Mono<Void>> work) {
		return Mono.usingWhen(this.locks.tryLock(this.evicting, LOCK_TIME), lock -> work.apply(lock).thenReturn(true),
				RedisCacheIndex::release, (lock, error) -> release(lock), RedisCacheIndex::release);
	}

	private static Mono<Void> release(Lock lock) {
		return lock.release().onErrorResume(error -> Mono.empty());
	}

	/** Entries idle past {@code max-age} go, under the eviction lock. */
	private Mono<Void> expire() {
		if (this.settings.maxAge().isZero() || this.settings.maxAge().isNegative()) {
			return Mono.empty();
		}
		return underEvictionLock(lock -> take(lock, EXPIRE,
				Long.toString(this.settings.clock().millis() - this.settings.maxAge().toMillis()), "age"))
			.then();
	}

	/**
	 * Runs a script that takes entries out of the index, deletes them, and goes on while
	 * batches come full.
	 */
	@SuppressWarnings("rawtypes")
	private Mono<Void> take(Lock lock, RedisScript<List> script, String argument, String reason) {
		return this.state.run(script, this.keys, List.of(argument, Integer.toString(BATCH)))
			.collectList()
			.flatMap(reply -> {
				List<StoragePath> victims = paths(reply);
				if (victims.isEmpty()) {
					return Mono.empty();
				}
				Mono<Void> deleted = this.evictor.evict(victims, reason);
				return (victims.size() < BATCH) ? deleted
						: deleted.then(lock.renew()).then(take(lock, script, argument, reason));
			});
	}

	/** Builds the index from the folder when it is missing, on one replica at a time. */
	private Mono<Void> build() {
		return this.state.guard(this.state.redis().hasKey(this.built))
			.flatMap(present -> present ? Mono.<Void>empty()
					: this.locks.whileLocked(this.building, LOCK_TIME, this::adoptFolder, Busy::new)
						.onErrorResume(Busy.class, elsewhere -> Mono.empty()));
	}

	private Mono<Void> adoptFolder() {
		return new IndexJournal(this.settings.storage(), this.settings.folder()).load().flatMap(found -> {
			List<List<String>> batches = new ArrayList<>();
			List<String> batch = new ArrayList<>();
			for (LruIndex.Snapshot entry : found) {
				batch.add(entry.path().toString());
				batch.add(Long.toString(entry.size() + LruIndex.ENTRY_CHARGE));
				batch.add(Long.toString(entry.lastUsed()));
				if (batch.size() >= 3 * 500) {
					batches.add(batch);
					batch = new ArrayList<>();
				}
			}
			batches.add(batch);
			return Flux.fromIterable(batches)
				.concatMap(
						arguments -> arguments.isEmpty() ? Mono.empty() : this.state.run(ADOPT, this.keys, arguments))
				.then(this.state.guard(this.state.redis().opsForValue().set(this.built, "1")))
				.then(refresh())
				.doOnSuccess(done -> logger.info("Build cache on mount '" + this.settings.mount()
						+ "': index built in Redis, " + this.entries + " entries, " + (this.bytes >> 20) + " MB of "
						+ (this.settings.maxBytes() >> 20) + " MB"));
		});
	}

	/**
	 * Writes the uses collected so far (also done every {@code usesEvery}, and at
	 * {@link #close()}).
	 */
	Mono<Void> writeUses() {
		if (this.uses.isEmpty()) {
			return Mono.empty();
		}
		List<String> arguments = new ArrayList<>();
		Iterator<Map.Entry<String, Long>> pending = this.uses.entrySet().iterator();
		while (pending.hasNext() && arguments.size() < 2 * 1000) {
			Map.Entry<String, Long> use = pending.next();
			pending.remove();
			arguments.add(Long.toString(use.getValue()));
			arguments.add(use.getKey());
		}
		return this.state.run(TOUCH, List.of(this.keys.get(0)), arguments).then(Mono.defer(this::writeUses));
	}

	private Mono<Void> refresh() {
		return this.state.guard(this.state.redis().opsForZSet().size(this.keys.get(0)))
			.doOnNext(count -> this.entries = count)
			.then(total())
			.doOnNext(total -> this.bytes = total)
			.then();
	}

	private void background(Mono<Void> eviction) {
		eviction.subscribe(null, error -> logger
			.warn("Build cache on mount '" + this.settings.mount() + "': could not evict: " + error.getMessage()));
	}

	private static List<StoragePath> paths(List<?> reply) {
		List<StoragePath> paths = new ArrayList<>();
		for (Object element : reply) {
			if (element instanceof List<?> nested) {
				paths.addAll(paths(nested));
			}
			else if (element instanceof String path) {
				try {
					paths.add(StoragePath.reserved(path));
				}
				catch (InvalidStoragePathException ex) {
					// Not a path this index wrote: nothing to delete.
				}
			}
		}
		return paths;
	}

	@Override
	public void close() {
		for (Disposable running : new Disposable[] { this.upkeep, this.touching }) {
			if (running != null) {
				running.dispose();
			}
		}
		try {
			writeUses().block(Duration.ofSeconds(5));
		}
		catch (RuntimeException ex) {
			logger.debug("Build cache on mount '" + this.settings.mount() + "': uses not written at shutdown", ex);
		}
	}

	/** The building lock is held by another replica. */
	private static final class Busy extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Busy() {
			super(null, null, false, false);
		}

	}

}
