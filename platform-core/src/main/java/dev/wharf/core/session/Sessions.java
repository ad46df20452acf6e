package dev.wharf.core.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import dev.wharf.core.state.SharedStateUnavailableException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creates, finds and ends sessions, over a {@link SessionStore}. A session's secret (the
 * cookie value) is 256 random bits handed to the client once; the store only ever sees
 * its digest. A session ends after {@link SessionProperties#idleTimeout()} without use,
 * or {@link SessionProperties#maxAge()} after the login, or when revoked, or when its
 * user starts more than {@link SessionProperties#maxPerUser()} (the oldest end first).
 * How fast sessions start is limited per user and per client address
 * ({@link SessionProperties#newSessions()}, {@link NewSessionLimits}). A store that
 * cannot be reached makes every method fail with {@link SharedStateUnavailableException},
 * never answer "no session". Thread-safe; never blocks.
 */
public final class Sessions {

	/** Random bytes in a session secret. */
	public static final int SECRET_BYTES = 32;

	/**
	 * A session's last use is written back at most this often, so a shared store is not
	 * written on every request.
	 */
	static final Duration TOUCH_INTERVAL = Duration.ofMinutes(1);

	private final SessionStore store;

	private final Duration idleTimeout;

	private final Duration maxAge;

	private final int maxPerUser;

	private final NewSessionLimits limits;

	private final Clock clock;

	/**
	 * Creates the service with limits on session starts kept in this process.
	 * @param store where sessions live
	 * @param properties how long they last
	 * @param clock the time source
	 */
	public Sessions(SessionStore store, SessionProperties properties, Clock clock) {
		this(store, new InMemoryNewSessionLimits(properties.newSessions(), clock), properties, clock);
	}

	/**
	 * Creates the service.
	 * @param store where sessions live
	 * @param limits how fast sessions may start
	 * @param properties how long they last
	 * @param clock the time source
	 */
	public Sessions(SessionStore store, NewSessionLimits limits, SessionProperties properties, Clock clock) {
		this.store = store;
		this.idleTimeout = properties.idleTimeout();
		this.maxAge = properties.maxAge();
		this.maxPerUser = properties.maxPerUser();
		this.limits = limits;
		this.clock = clock;
	}

	/** How long a session lasts at most, for the cookie's {@code Max-Age}. */
	public Duration maxAge() {
		return this.maxAge;
	}

	/**
	 * Starts a session.
	 * @param user who logged in
	 * @param client the client's address, or {@code null}
	 * @param credentials the login, only if a passthrough mount needs it; otherwise
	 * {@code null}
	 * @return the new session and its secret; fails with {@link SessionLimitException}
	 * when the user or the address started too many sessions lately, or the store is full
	 */
	public Mono<NewSession> create(User user, @Nullable String client, @Nullable Credentials credentials) {
		return this.limits.tryStart(user.name(), client).then(Mono.defer(() -> {
			String secret = Secrets.random(SECRET_BYTES);
			Instant now = this.clock.instant();
			Session session = new Session(Secrets.digest(secret), user.name(), now, now, client, credentials);
			return this.store.create(session, timeToLive(session, now), this.maxPerUser)
				.thenReturn(new NewSession(secret, session));
		}));
	}

	/**
	 * Finds the live session for a secret, and records its use.
	 * @param secret the cookie value the client sent
	 * @return the session, or empty if the secret is malformed, unknown, expired or
	 * revoked
	 */
	public Mono<Session> find(String secret) {
		if (!Secrets.looksLikeSecret(secret, SECRET_BYTES)) {
			return Mono.empty();
		}
		String key = Secrets.digest(secret);
		return this.store.find(key).flatMap(session -> {
			Instant now = this.clock.instant();
			if (!isLive(session, now)) {
				return this.store.delete(key).then(Mono.empty());
			}
			if (Duration.between(session.lastSeen(), now).compareTo(TOUCH_INTERVAL) < 0) {
				return Mono.just(session);
			}
			Session touched = session.seenAt(now);
			// The use is recorded on a best-effort basis: a store that was just read but
			// cannot be written now
			// does not log the user out; it is written again at the next use.
			return this.store.update(touched, timeToLive(touched, now))
				.onErrorResume(SharedStateUnavailableException.class, down -> Mono.empty())
				.thenReturn(touched);
		});
	}

	/**
	 * Ends the session of a secret.
	 * @param secret the cookie value
	 * @return the session that ended, or empty if there was none
	 */
	public Mono<Session> revoke(String secret) {
		if (!Secrets.looksLikeSecret(secret, SECRET_BYTES)) {
			return Mono.empty();
		}
		String key = Secrets.digest(secret);
		return this.store.find(key).flatMap(session -> this.store.delete(key).thenReturn(session));
	}

	/**
	 * Ends every session of a user.
	 * @param user the user's name
	 * @return how many ended
	 */
	public Mono<Integer> revokeAll(String user) {
		return this.store.deleteAll(user);
	}

	/**
	 * A user's live sessions.
	 * @param user the user's name
	 * @return the sessions
	 */
	public Flux<Session> list(String user) {
		return this.store.findAll(user).filter(session -> isLive(session, this.clock.instant()));
	}

	private boolean isLive(Session session, Instant now) {
		return now.isBefore(session.lastSeen().plus(this.idleTimeout))
				&& now.isBefore(session.created().plus(this.maxAge));
	}

	private Duration timeToLive(Session session, Instant now) {
		Duration untilMaxAge = Duration.between(now, session.created().plus(this.maxAge));
		Duration ttl = (untilMaxAge.compareTo(this.idleTimeout) < 0) ? untilMaxAge : this.idleTimeout;
		return ttl.isNegative() || ttl.isZero() ? Duration.ofMillis(1) : ttl;
	}

	/**
	 * A session just created.
	 *
	 * @param secret the value for the client's cookie; shown to the client once and
	 * stored nowhere
	 * @param session the stored session
	 */
	public record NewSession(String secret, Session session) {

		@Override
		public String toString() {
			return "NewSession[" + this.session + "]";
		}

	}

}
