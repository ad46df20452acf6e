package dev.wharf.core.state.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.ApiTokenStore;
import dev.wharf.core.state.Invalidations;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * API tokens in Redis, shared by every replica: a token minted through one works on all,
 * and a revocation on one ends it on all at once. Only digests are stored, never a token.
 *
 * <p>
 * <b>Keys.</b> {@code <prefix>token:<digest>}: one token,
 * {@code "id user created expires label"} (tab-separated, epoch milliseconds, 0 for no
 * expiry; labels hold no control characters), expiring with the token;
 * {@code <prefix>tokens-of:<user>}: the user's index, a hash of token ids to digests, to
 * list and revoke by id. Adding and revoking are one script each.
 *
 * <p>
 * <b>Lookups</b> are kept in this process for at most
 * {@link RedisSessionStore#CACHE_TIME}; a revocation publishes the digest on the
 * invalidation channel, which drops it from every replica's cache at once (or when that
 * time is up, on a replica that missed the message).
 *
 * <p>
 * Thread-safe; never blocks. Fails with
 * {@link dev.wharf.core.state.SharedStateUnavailableException} when Redis cannot be
 * reached.
 */
public final class RedisApiTokenStore implements ApiTokenStore {

	/** The invalidation topic of revoked tokens. */
	static final String TOPIC = "token";

	private static final RedisScript<Long> ADD = RedisState.script(RedisApiTokenStore.class, "token-add", Long.class);

	private static final RedisScript<String> REMOVE = RedisState.script(RedisApiTokenStore.class, "token-remove",
			String.class);

	private final RedisState state;

	private final String channel;

	private final Clock clock;

	private final Cache<String, ApiToken> recent;

	/**
	 * Creates the store and subscribes its cache to invalidations.
	 * @param state the Redis client and key prefix
	 * @param invalidations where revoked tokens are announced (the channel the scripts
	 * publish on)
	 * @param channel the invalidation channel's name
	 * @param cacheTime how long a lookup is answered from memory
	 * @param clock the time source, for the keys' expiry
	 */
	public RedisApiTokenStore(RedisState state, Invalidations invalidations, String channel, Duration cacheTime,
			Clock clock) {
		this.state = state;
		this.channel = channel;
		this.clock = clock;
		this.recent = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(cacheTime).build();
		invalidations.subscribe(TOPIC, this.recent::invalidate);
	}

	@Override
	public Mono<ApiToken> find(String digest) {
		ApiToken cached = this.recent.getIfPresent(digest);
		if (cached != null) {
			return Mono.just(cached);
		}
		return this.state.guard(this.state.redis().opsForValue().get(tokenKey(digest)))
			.mapNotNull(value -> decode(digest, value))
			.doOnNext(token -> this.recent.put(digest, token));
	}

	@Override
	public Flux<ApiToken> list(String user) {
		return this.state.guard(this.state.redis().<String, String>opsForHash().entries(indexKey(user)))
			.collectList()
			.filter(entries -> !entries.isEmpty())
			.flatMapMany(entries -> {
				List<String> digests = entries.stream().map(Map.Entry::getValue).toList();
				return this.state
					.guard(this.state.redis().opsForValue().multiGet(digests.stream().map(this::tokenKey).toList()))
					.flatMapIterable(values -> {
						List<ApiToken> tokens = new ArrayList<>(values.size());
						for (int i = 0; i < values.size(); i++) {
							String value = values.get(i);
							ApiToken token = (value != null) ? decode(digests.get(i), value) : null;
							if (token != null && token.user().equals(user)) {
								tokens.add(token);
							}
						}
						tokens.sort(Comparator.comparing(ApiToken::created));
						return tokens;
					});
			});
	}

	@Override
	public Mono<Void> add(ApiToken token) {
		return Mono.defer(() -> {
			Instant expires = token.expires();
			long timeToLive = (expires != null) ? Math.max(1, expires.toEpochMilli() - this.clock.millis()) : 0;
			return this.state
				.run(ADD, List.of(tokenKey(token.digest()), indexKey(token.user())),
						List.of(encode(token), Long.toString(timeToLive), token.id(), token.digest()))
				.then();
		});
	}

	@Override
	public Mono<Boolean> remove(String user, String id) {
		return Mono.defer(() -> this.state
			.run(REMOVE, List.of(indexKey(user)), List.of(this.state.key("token", ""), id, this.channel))
			.next()
			.map(digest -> {
				this.recent.invalidate(digest);
				return !digest.isEmpty();
			})
			.defaultIfEmpty(false));
	}

	private String tokenKey(String digest) {
		return this.state.key("token", digest);
	}

	private String indexKey(String user) {
		return this.state.key("tokens-of", user);
	}

	private static String encode(ApiToken token) {
		Instant expires = token.expires();
		return token.id() + "\t" + token.user() + "\t" + token.created().toEpochMilli() + "\t"
				+ ((expires != null) ? expires.toEpochMilli() : 0) + "\t" + token.label();
	}

	private static @Nullable ApiToken decode(String digest, String value) {
		String[] fields = value.split("\t", 5);
		if (fields.length != 5) {
			return null;
		}
		try {
			long expires = Long.parseLong(fields[3]);
			return new ApiToken(fields[0], fields[1], fields[4], digest,
					Instant.ofEpochMilli(Long.parseLong(fields[2])),
					(expires == 0) ? null : Instant.ofEpochMilli(expires));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
