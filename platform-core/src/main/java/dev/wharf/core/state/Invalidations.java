package dev.wharf.core.state;

import java.util.function.Consumer;

import reactor.core.publisher.Mono;

/**
 * Tells every replica that something it may have cached changed: a session ended, a token
 * was revoked, a user logged out everywhere. In this process
 * ({@link InProcessInvalidations}) or over Redis pub/sub to every replica. Delivery is
 * best effort: a replica that is disconnected at that moment misses the message, so what
 * a replica caches must also run out by itself within the delay the cache promises.
 *
 * <p>
 * <b>Threading.</b> {@link #publish} returns at once and never blocks. Listeners are
 * called on whatever thread delivers the message (the caller's in this process, a Redis
 * client's thread otherwise) and must return quickly without blocking. Thread-safe.
 * <b>Nulls.</b> No argument may be {@code null}.
 */
public interface Invalidations {

	/**
	 * Tells every replica, this one included, that a key of a topic changed.
	 * @param topic such as {@code session}; letters and hyphens
	 * @param key what changed, without spaces
	 * @return completes once sent; fails with {@link SharedStateUnavailableException} if
	 * it cannot be
	 */
	Mono<Void> publish(String topic, String key);

	/**
	 * Registers a listener for a topic, for the lifetime of this object.
	 * @param topic the topic
	 * @param listener called with each changed key
	 */
	void subscribe(String topic, Consumer<String> listener);

}
