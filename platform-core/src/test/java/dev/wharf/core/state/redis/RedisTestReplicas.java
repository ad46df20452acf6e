package dev.wharf.core.state.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.jspecify.annotations.Nullable;

import static org.awaitility.Awaitility.await;

/**
 * "Replicas" of the Redis state for one test method: each {@link #replica} has a client
 * of its own and its own invalidation subscription, over a Redis emptied when the first
 * replica connects. Not thread-safe.
 */
final class RedisTestReplicas implements AutoCloseable {

	static final String PREFIX = "wharf:";

	private final RedisProcess redis;

	private @Nullable RedisClients clients;

	private final List<RedisInvalidations> subscriptions = new ArrayList<>();

	RedisTestReplicas(RedisProcess redis) {
		this.redis = redis;
	}

	/** A new replica's state and its invalidations, listening once this returns. */
	Replica replica() {
		if (this.clients == null) {
			try {
				this.redis.flushAll();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.clients = new RedisClients(this.redis);
		}
		RedisState state = this.clients.state(PREFIX);
		RedisInvalidations invalidations = new RedisInvalidations(state, this.clients.connections());
		this.subscriptions.add(invalidations);
		await().atMost(Duration.ofSeconds(10)).until(invalidations::isListening);
		return new Replica(state, invalidations);
	}

	@Override
	public void close() {
		this.subscriptions.forEach(RedisInvalidations::close);
		this.subscriptions.clear();
		if (this.clients != null) {
			this.clients.close();
			this.clients = null;
		}
	}

	/**
	 * One replica's view.
	 *
	 * @param state its client
	 * @param invalidations its subscription
	 */
	record Replica(RedisState state, RedisInvalidations invalidations) {
	}

}
