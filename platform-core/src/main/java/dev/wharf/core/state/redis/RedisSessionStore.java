package dev.wharf.core.state.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.session.Session;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.state.Invalidations;
import org.jspecify.annotations.Nullable;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sessions in Redis, shared by every replica, so a replica that did not see the login
 * knows the session and a logout on any replica ends it on all.
 *
 * <p>
 * <b>Keys.</b> {@code <prefix>session:<digest>}: one session,
 * {@code "created lastSeen client user"} (tab-separated, epoch milliseconds), whose
 * expiry is the session's time to live (the idle timeout, shortened to what is left of
 * the maximum age); {@code <prefix>sessions-of:<user>}: the user's index, a sorted set of
 * session digests by creation time, which lives as long as the user's longest session.
 * Creating (with the cap per user), updating, ending one and ending all are one script
 * each, so index and sessions change together.
 *
 * <p>
 * <b>Lookups.</b> A session found is kept in this process for at most
 * {@link #CACHE_TIME}, so a busy client costs Redis one lookup a second rather than one a
 * request. Ending sessions publishes their digests on the invalidation channel, which
 * drops them from every replica's cache at once; a replica that misses the message
 * (disconnected at that moment) drops them when {@link #CACHE_TIME} is up. A logout or
 * revocation therefore takes effect on every replica within a second.
 *
 * <p>
 * <b>Passthrough credentials</b> ({@link Session#credentials()}) are never written to
 * Redis: they stay in the memory of the replica that made the session, so mounts that log
 * in as the user need sticky sessions. There is no overall cap
 * ({@code wharf.sessions.maximum-sessions}): Redis's own {@code maxmemory} bounds the
 * sessions, and a full Redis refuses new ones (503).
 *
 * <p>
 * Thread-safe; never blocks: every method is one or two round trips on the Redis client's
 * event loop, and fails with {@link dev.wharf.core.state.SharedStateUnavailableException}
 * when Redis cannot be reached.
 */
public final class RedisSessionStore implements SessionStore {

	/** The longest a replica answers a lookup from its own memory. */
	public static final Duration CACHE_TIME = Duration.ofSeconds(1);

	/** The invalidation topic of ended sessions. */
	static final String TOPIC = "session";

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> CREATE = RedisState.script(RedisSessionStore.class, "session-create",
			List.class);

	private static final RedisScript<Long> UPDATE = RedisState.script(RedisSessionStore.class, "session-update",
			Long.class);

	private static final RedisScript<Long> DELETE = RedisState.script(RedisSessionStore.class, "session-delete",
			Long.class);

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> DELETE_ALL = RedisState.script(RedisSessionStore.class, "session-delete-all",
			List.class);

	private final RedisState state;

	private final String channel;

	private final Cache<String, Session> recent;

	private final Cache<String, Credentials> credentials;

	/**
	 * Creates the store and subscribes its cache to invalidations.
	 * @param state the Redis client and key prefix
	 * @param invalidations where ended sessions are announced (the channel the scripts
	 * publish on)
	 * @param channel the invalidation channel's name, such as {@code wharf:invalidations}
	 * @param cacheTime how long a lookup is answered from memory, at most
	 * {@link #CACHE_TIME} in production
	 * @param idleTimeout how long passthrough credentials are kept without use
	 */
	public RedisSessionStore(RedisState state, Invalidations invalidations, String channel, Duration cacheTime,
			Duration idleTimeout) {
		this.state = state;
		this.channel = channel;
		this.recent = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(cacheTime).build();
		this.credentials = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(idleTimeout).build();
		invalidations.subscribe(TOPIC, this::forget);
	}

	@Override
	public Mono<Void> create(Session session, Duration timeToLive, int maxPerUser) {
		return Mono.defer(() -> {
			List<String> keys = List.of(indexKey(session.user()), sessionKey(session.key()));
			List<String> args = List.of(this.state.key("session", ""), session.key(), encode(session),
					Long.toString(timeToLive.toMillis()), Integer.toString(maxPerUser),
					Long.toString(session.created().toEpochMilli()), this.channel);
			List<String> ended = new ArrayList<>();
			return this.state.run(CREATE, keys, args)
				.cast(Object.class)
				.doOnNext(reply -> collect(reply, ended))
				.then(Mono.fromRunnable(() -> {
					ended.forEach(this::forget);
					Credentials login = session.credentials();
					if (login != null) {
						this.credentials.put(session.key(), login);
					}
					this.recent.put(session.key(), session);
				}));
		});
	}

	@Override
	public Mono<Void> update(Session session, Duration timeToLive) {
		return Mono.defer(
				() -> this.state
					.run(UPDATE, List.of(sessionKey(session.key()), indexKey(session.user())),
							List.of(encode(session), Long.toString(timeToLive.toMillis())))
					.next()
					.doOnNext(updated -> {
						if (updated == 1) {
							this.recent.put(session.key(), session);
						}
					})
					.then());
	}

	@Override
	public Mono<Session> find(String key) {
		Session cached = this.recent.getIfPresent(key);
		if (cached != null) {
			return Mono.just(cached);
		}
		return this.state.guard(this.state.redis().opsForValue().get(sessionKey(key)))
			.mapNotNull(value -> decode(key, value))
			.doOnNext(session -> this.recent.put(key, session));
	}

	@Override
	public Mono<Void> delete(String key) {
		return Mono.defer(() -> this.state
			.run(DELETE, List.of(sessionKey(key)), List.of(this.state.key("sessions-of", ""), key, this.channel))
			.then(Mono.fromRunnable(() -> forget(key))));
	}

	@Override
	public Flux<Session> findAll(String user) {
		return this.state.guard(this.state.redis().opsForZSet().range(indexKey(user), Range.<Long>unbounded()))
			.collectList()
			.filter(keys -> !keys.isEmpty())
			.flatMapMany(keys -> this.state
				.guard(this.state.redis().opsForValue().multiGet(keys.stream().map(this::sessionKey).toList()))
				.flatMapIterable(values -> {
					List<Session> found = new ArrayList<>(values.size());
					for (int i = 0; i < values.size(); i++) {
						String value = values.get(i);
						Session session = (value != null) ? decode(keys.get(i), value) : null;
						if (session != null) {
							found.add(session);
						}
					}
					return found;
				}));
	}

	@Override
	public Mono<Integer> deleteAll(String user) {
		return Mono.defer(() -> {
			List<String> ended = new ArrayList<>();
			return this.state
				.run(DELETE_ALL, List.of(indexKey(user)), List.of(this.state.key("session", ""), this.channel))
				.cast(Object.class)
				.doOnNext(reply -> collect(reply, ended))
				.then(Mono.fromSupplier(() -> {
					ended.forEach(this::forget);
					return ended.size();
				}));
		});
	}

	/**
	 * Collects the keys of a script's list reply, whether the client hands it over whole
	 * or element by element.
	 */
	private static void collect(Object reply, List<String> keys) {
		if (reply instanceof List<?> list) {
			list.forEach(element -> collect(element, keys));
		}
		else if (reply instanceof String key) {
			keys.add(key);
		}
	}

	private void forget(String key) {
		this.recent.invalidate(key);
		this.credentials.invalidate(key);
	}

	private String sessionKey(String key) {
		return this.state.key("session", key);
	}

	private String indexKey(String user) {
		return this.state.key("sessions-of", user);
	}

	/**
	 * The stored form; user names and addresses hold no tabs, and the name comes last for
	 * the scripts.
	 */
	private static String encode(Session session) {
		String client = session.client();
		return session.created().toEpochMilli() + "\t" + session.lastSeen().toEpochMilli() + "\t"
				+ ((client != null) ? client : "") + "\t" + session.user();
	}

	private @Nullable Session decode(String key, String value) {
		String[] fields = value.split("\t", 4);
		if (fields.length != 4) {
			return null;
		}
		try {
			return new Session(key, fields[3], Instant.ofEpochMilli(Long.parseLong(fields[0])),
					Instant.ofEpochMilli(Long.parseLong(fields[1])), fields[2].isEmpty() ? null : fields[2],
					this.credentials.getIfPresent(key));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
