package dev.wharf.core.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.wharf.core.session.SessionLimitException.Limit;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sessions in this process's memory: the default for one node. Each session expires after
 * its own time to live, and an index by user finds a user's sessions without looking at
 * anyone else's. The number of sessions is capped per user (the user's oldest end first)
 * and in all (so a flood of logins cannot exhaust the heap); at the overall cap a new
 * session takes the place of its own user's oldest, or is refused, and never ends another
 * user's. Everything runs on the caller's thread in microseconds. Thread-safe.
 */
public final class InMemorySessionStore implements SessionStore {

	/** How long a client is asked to wait when the store is full. */
	static final Duration FULL_RETRY_AFTER = Duration.ofMinutes(1);

	private final long maximumSessions;

	private final Cache<String, Stored> sessions;

	/**
	 * Each user's session keys. Changed with the sessions: created with them, and on
	 * every removal.
	 */
	private final ConcurrentMap<String, Set<String>> byUser = new ConcurrentHashMap<>();

	/**
	 * Held while a session is created, so counts and caps are exact. Lookups never take
	 * it.
	 */
	private final Object creating = new Object();

	/** Sessions created so far; guarded by {@link #creating}. */
	private long created;

	/**
	 * Creates a store on the system ticker.
	 * @param maximumSessions the most sessions kept, all users together
	 */
	public InMemorySessionStore(long maximumSessions) {
		this(maximumSessions, Ticker.systemTicker());
	}

	InMemorySessionStore(long maximumSessions, Ticker ticker) {
		this.maximumSessions = maximumSessions;
		this.sessions = Caffeine.newBuilder()
			.ticker(ticker)
			// Removals are told on the removing thread, so the index never lags behind
			// the sessions.
			.executor(Runnable::run)
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
			.removalListener((@Nullable String key, @Nullable Stored value, RemovalCause cause) -> {
				if (key != null && value != null && cause != RemovalCause.REPLACED) {
					unindex(value.session().user(), key);
				}
			})
			.build();
	}

	@Override
	public Mono<Void> create(Session session, Duration timeToLive, int maxPerUser) {
		return Mono.fromRunnable(() -> {
			synchronized (this.creating) {
				List<Stored> own = storedOf(session.user());
				// By login time, and in the order stored for logins in the same instant.
				own.sort(Comparator.comparing((Stored stored) -> stored.session().created())
					.thenComparingLong(Stored::sequence));
				int ending = Math.max(0, own.size() + 1 - maxPerUser);
				if (ending == 0 && isFull()) {
					if (own.isEmpty()) {
						throw new SessionLimitException(Limit.STORE_FULL, FULL_RETRY_AFTER);
					}
					ending = 1;
				}
				for (int i = 0; i < ending; i++) {
					this.sessions.invalidate(own.get(i).session().key());
				}
				this.byUser.compute(session.user(), (user, keys) -> {
					Set<String> index = (keys != null) ? keys : ConcurrentHashMap.newKeySet();
					index.add(session.key());
					return index;
				});
				this.sessions.put(session.key(), new Stored(session, timeToLive.toNanos(), ++this.created));
			}
		});
	}

	@Override
	public Mono<Void> update(Session session, Duration timeToLive) {
		return Mono.fromRunnable(() -> this.sessions.asMap()
			.computeIfPresent(session.key(),
					(key, previous) -> new Stored(session, timeToLive.toNanos(), previous.sequence())));
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
		return Flux.defer(() -> Flux.fromIterable(storedOf(user)).map(Stored::session));
	}

	@Override
	public Mono<Integer> deleteAll(String user) {
		return Mono.fromSupplier(() -> {
			Set<String> keys = this.byUser.remove(user);
			int removed = 0;
			if (keys != null) {
				for (String key : keys) {
					if (this.sessions.asMap().remove(key) != null) {
						removed++;
					}
				}
			}
			return removed;
		});
	}

	/** How many sessions are held, for tests and metrics. */
	public long size() {
		this.sessions.cleanUp();
		return this.sessions.estimatedSize();
	}

	private List<Stored> storedOf(String user) {
		Set<String> keys = this.byUser.get(user);
		List<Stored> found = new ArrayList<>((keys != null) ? keys.size() : 0);
		if (keys != null) {
			for (String key : keys) {
				Stored stored = this.sessions.getIfPresent(key);
				if (stored != null) {
					found.add(stored);
				}
			}
		}
		return found;
	}

	private boolean isFull() {
		if (this.sessions.estimatedSize() < this.maximumSessions) {
			return false;
		}
		// The estimate counts sessions that expired but were not swept yet.
		this.sessions.cleanUp();
		return this.sessions.estimatedSize() >= this.maximumSessions;
	}

	private void unindex(String user, String key) {
		this.byUser.computeIfPresent(user, (name, keys) -> {
			keys.remove(key);
			return keys.isEmpty() ? null : keys;
		});
	}

	/**
	 * A stored session.
	 *
	 * @param session the session
	 * @param timeToLiveNanos how long it is kept from its last update
	 * @param sequence the order in which sessions were created, for logins in the same
	 * instant
	 */
	private record Stored(Session session, long timeToLiveNanos, long sequence) {
	}

}
