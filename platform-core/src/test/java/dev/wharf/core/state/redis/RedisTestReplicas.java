package dev.wharf.core.state.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.awaitility.Awaitility.await;

/**
 * "Replicas" of the Redis state for one test method: each {@link #replica} has a client
 * of its own and its own invalidation subscription, over a Redis emptied when the first
 * replica connects. After each test method (and after the class's own {@code @AfterEach}
 * methods) it disconnects them and starts Redis again if the test stopped it:
 * {@code @RegisterExtension final RedisTestReplicas replicas = new RedisTestReplicas(redis);}.
 * Not thread-safe.
 */
final class RedisTestReplicas implements AfterEachCallback {

	static final String PREFIX = "wharf:";

	private final RedisProcess.PerClass redis;

	private @Nullable RedisClients clients;

	private final List<RedisInvalidations> subscriptions = new ArrayList<>();

	RedisTestReplicas(RedisProcess.PerClass redis) {
		this.redis = redis;
	}

	/** A new replica's state and its invalidations, listening once this returns. */
	Replica replica() {
		if (this.clients == null) {
			try {
				this.redis.server().flushAll();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.clients = new RedisClients(this.redis.server());
		}
		RedisState state = this.clients.state(PREFIX);
		RedisInvalidations invalidations = new RedisInvalidations(state, this.clients.connections());
		this.subscriptions.add(invalidations);
		await().atMost(Duration.ofSeconds(10)).until(invalidations::isListening);
		return new Replica(state, invalidations);
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		this.subscriptions.forEach(RedisInvalidations::close);
		this.subscriptions.clear();
		if (this.clients != null) {
			this.clients.close();
			this.clients = null;
		}
		this.redis.server().start();
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
