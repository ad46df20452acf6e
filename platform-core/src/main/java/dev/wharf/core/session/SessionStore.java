package dev.wharf.core.session;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where sessions live. The default keeps them in this process ({@link InMemorySessionStore}); replicas
 * need a shared implementation (such as memcached), contributed as a bean that replaces the default.
 *
 * <p>Keys are digests of the session secrets, never the secrets. A store that keeps sessions outside this
 * process must not write {@link Session#credentials()} out: it keeps them in memory only, so passthrough
 * mounts then need sticky sessions.
 *
 * <p><b>Threading.</b> Every method returns at once and never blocks the caller (which is often a Netty
 * event loop); blocking clients run on their own bounded executor. Implementations are thread-safe.
 * <b>Nulls.</b> No argument may be {@code null}.
 */
public interface SessionStore {

	/**
	 * Stores or replaces a session.
	 * @param session the session
	 * @param timeToLive how long the store keeps it unless it is saved again; more than zero
	 * @return completes when stored
	 */
	Mono<Void> save(Session session, Duration timeToLive);

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
	 * Lists a user's sessions.
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
