package dev.wharf.core.security;

import java.util.Optional;

import reactor.core.publisher.Mono;

/**
 * Where Wharf remembers the users who signed in through a directory or an identity
 * provider ({@link ExternalUsers}), so that their sessions and API tokens can name them
 * between sign-ins, also after a restart. With {@code wharf.state.store: local} a file in
 * {@code wharf.state-dir} ({@link FileExternalUserStore}), which replicas sharing that
 * folder share; with {@code redis} a hash in Redis
 * ({@code dev.wharf.core.state.redis.RedisExternalUserStore}), which every replica
 * shares.
 *
 * <p>
 * <b>Threading.</b> {@link #find} is on every request's path and answers from memory; the
 * other methods return at once and never block the caller. Implementations are
 * thread-safe. <b>Nulls.</b> No argument may be {@code null}.
 */
public interface ExternalUserStore {

	/**
	 * Looks a user up.
	 * @param name the user's name
	 * @return the user as last stored, or empty
	 */
	Optional<ExternalUser> find(String name);

	/**
	 * Stores a user, replacing what was stored under the name.
	 * @param user the user
	 * @return completes once stored
	 */
	Mono<Void> save(ExternalUser user);

	/**
	 * Forgets a user.
	 * @param name the user's name
	 * @return completes once forgotten, also if the user was not there
	 */
	Mono<Void> remove(String name);

}
