package dev.wharf.core.share;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where share links live; they must survive restarts and, with several replicas, be the
 * same on every one ({@code wharf.state.store}). The default is a file in
 * {@code wharf.state-dir} ({@link FileShareStore}); the Redis implementation serves
 * replicas.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller;
 * {@link #find} is on every visitor's request. Implementations are thread-safe.
 * <b>Nulls.</b> No argument may be {@code null}.
 */
public interface ShareStore {

	/**
	 * Looks a share up.
	 * @param id its id
	 * @return the share, or empty if there is none (never made, or revoked)
	 */
	Mono<Share> find(String id);

	/**
	 * Lists the shares a user made.
	 * @param creator the user's name
	 * @return the shares, oldest first
	 */
	Flux<Share> list(String creator);

	/**
	 * Stores a new share, or changes one: everything but its download count, which only
	 * {@link #countDownload} changes (so a change made while visitors download loses none
	 * of their downloads).
	 * @param share the share
	 * @return completes once it is stored durably
	 */
	Mono<Void> put(Share share);

	/**
	 * Removes a share its creator revokes; it stops working at once.
	 * @param creator the creator's name
	 * @param id the share's id
	 * @return whether the user had such a share
	 */
	Mono<Boolean> remove(String creator, String id);

	/**
	 * Counts one download, atomically with the check against the share's limit.
	 * @param id the share's id
	 * @return whether the download may go ahead: false if the downloads are used up or
	 * the share is gone
	 */
	Mono<Boolean> countDownload(String id);

}
