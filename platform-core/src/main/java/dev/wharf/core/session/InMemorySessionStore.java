package dev.wharf.core.session;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sessions in this process's memory: the default for one node. Each session expires after its own time to
 * live; the number of sessions is capped (the oldest unused go first), so a flood of logins cannot exhaust
 * the heap. Everything runs on the caller's thread in microseconds. Thread-safe.
 */
public final class InMemorySessionStore implements SessionStore {

	private final Cache<String, Stored> sessions;

	/**
	 * Creates a store on the system ticker.
	 * @param maximumSessions the most sessions kept
	 */
	public InMemorySessionStore(long maximumSessions) {
		this(maximumSessions, Ticker.systemTicker());
	}

	InMemorySessionStore(long maximumSessions, Ticker ticker) {
		this.sessions = Caffeine.newBuilder()
			.maximumSize(maximumSessions)
			.ticker(ticker)
			.expireAfter(new Expiry<String, Stored>() {

				@Override
				public long expireAfterCreate(String key, Stored value, long currentTime) {
					return value.timeToLiveNanos();
				}

				@Override
				public long expireAfterUpdate(String key, Stored value, long currentTime, long currentDuration) {
					return value.timeToLiveNanos();
				}

				@Override
				public long expireAfterRead(String key, Stored value, long currentTime, long currentDuration) {
					return currentDuration;
				}

			})
			.build();
	}

	@Override
	public Mono<Void> save(Session session, Duration timeToLive) {
		return Mono.fromRunnable(() -> this.sessions.put(session.key(), new Stored(session, timeToLive.toNanos())));
	}

	@Override
	public Mono<Session> find(String key) {
		Stored stored = this.sessions.getIfPresent(key);
		return (stored != null) ? Mono.just(stored.session()) : Mono.empty();
	}

	@Override
	public Mono<Void> delete(String key) {
		return Mono.fromRunnable(() -> this.sessions.invalidate(key));
	}

	@Override
	public Flux<Session> findAll(String user) {
		return Flux.defer(() -> Flux.fromStream(this.sessions.asMap()
			.values()
			.stream()
			.map(Stored::session)
			.filter(session -> session.user().equals(user))
			.toList()
			.stream()));
	}

	@Override
	public Mono<Integer> deleteAll(String user) {
		return Mono.fromSupplier(() -> {
			AtomicInteger removed = new AtomicInteger();
			this.sessions.asMap().values().removeIf(stored -> {
				boolean match = stored.session().user().equals(user);
				if (match) {
					removed.incrementAndGet();
				}
				return match;
			});
			return removed.get();
		});
	}

	/** How many sessions are held, for tests and metrics. */
	public long size() {
		this.sessions.cleanUp();
		return this.sessions.estimatedSize();
	}

	private record Stored(Session session, long timeToLiveNanos) {
	}

}
