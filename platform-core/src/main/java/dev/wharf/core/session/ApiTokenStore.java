package dev.wharf.core.session;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where API tokens live; they must survive restarts. The default is a file in
 * {@code wharf.state-dir} ({@link FileApiTokenStore}); a shared implementation can
 * replace it for replicas.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller;
 * {@link #find} is on every API request's path and should answer from memory.
 * Implementations are thread-safe. <b>Nulls.</b> No argument may be {@code null}.
 */
public interface ApiTokenStore {

	/**
	 * Looks a token up by its digest.
	 * @param digest {@link Secrets#digest} of the token a client sent
	 * @return the token, or empty
	 */
	Mono<ApiToken> find(String digest);

	/**
	 * Lists a user's tokens.
	 * @param user the user's name
	 * @return the tokens, oldest first
	 */
	Flux<ApiToken> list(String user);

	/**
	 * Stores a new token durably.
	 * @param token the token
	 * @return completes once it is stored
	 */
	Mono<Void> add(ApiToken token);

	/**
	 * Removes a token of a user.
	 * @param user the owner's name
	 * @param id the token's id
	 * @return whether the user had such a token
	 */
	Mono<Boolean> remove(String user, String id);

}
