package dev.wharf.core.session;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where sessions live. The default keeps them in this process
 * ({@link InMemorySessionStore}); replicas need a shared implementation (such as Redis),
 * contributed as a bean that replaces the default.
 *
 * <p>
 * Keys are digests of the session secrets, never the secrets. A store that keeps sessions
 * outside this process must not write {@link Session#credentials()} out: it keeps them in
 * memory only, so passthrough mounts then need sticky sessions.
 *
 * <p>
 * <b>Bounds.</b> A store keeps an index of each user's sessions, so that one user's
 * sessions are found, counted and ended without looking at anyone else's: {@link #create}
 * ends the user's oldest sessions past a cap, and a store with a capacity of its own
 * never makes room by ending another user's session. A shared store would keep, say, one
 * key per session (with its time to live) and one sorted set per user (session keys by
 * creation time), changed together in one transaction.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller (which is
 * often a Netty event loop); blocking clients run on their own bounded executor.
 * Implementations are thread-safe. <b>Nulls.</b> No argument may be {@code null}.
 */
public interface SessionStore {

	/**
	 * Stores a new session. If its user then has more than {@code maxPerUser} sessions,
	 * the user's oldest (by {@link Session#created()}) end until {@code maxPerUser} are
	 * left. A store that is full ends the same user's oldest session to make room; if the
	 * user has none, it refuses.
	 * @param session the session, whose key is not stored yet
	 * @param timeToLive how long the store keeps it unless it is updated; more than zero
	 * @param maxPerUser the most sessions the user may have, at least 1
	 * @return completes when stored; fails with {@link SessionLimitException}
	 * ({@code STORE_FULL}) if the store is full and the user has no session to give up
	 */
	Mono<Void> create(Session session, Duration timeToLive, int maxPerUser);

	/**
	 * Replaces a stored session, such as with its last use. A session that ended
	 * meanwhile (revoked, expired, ended for a newer one) stays ended: this never brings
	 * it back.
	 * @param session the session
	 * @param timeToLive how long the store keeps it from now unless it is updated again;
	 * more than zero
	 * @return completes when stored, or at once if the session is gone
	 */
	Mono<Void> update(Session session, Duration timeToLive);

	/**
	 * Looks a session up.
	 * @param key the digest of its secret
	 * @return the session, or empty if there is none (any more)
	 */
	Mono<Session> find(String key);

	/**
	 * Removes a session.
	 * @param key the digest of its secret
	 * @return completes when gone, also if it was not there
	 */
	Mono<Void> delete(String key);

	/**
	 * Lists a user's sessions, from the user's index.
	 * @param user the user's name
	 * @return the sessions, in no particular order
	 */
	Flux<Session> findAll(String user);

	/**
	 * Removes every session of a user (log out everywhere).
	 * @param user the user's name
	 * @return how many were removed
	 */
	Mono<Integer> deleteAll(String user);

}
