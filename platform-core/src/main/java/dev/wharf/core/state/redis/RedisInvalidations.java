package dev.wharf.core.state.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.wharf.core.state.Invalidations;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * {@link Invalidations} over one Redis pub/sub channel, {@code <prefix>invalidations},
 * whose messages are a topic and the changed keys separated by spaces
 * ({@code session k1 k2}); scripts publish on it directly. The subscription is made at
 * once and made again, after a growing pause of at most 5 seconds, whenever it fails or
 * ends (Redis down at start-up, a dropped connection), so a replica listens again soon
 * after Redis is back.
 *
 * <p>
 * <b>Threading.</b> Listeners run on the Redis client's event loop and must not block.
 * Thread-safe.
 */
public final class RedisInvalidations implements Invalidations, AutoCloseable {

	private final RedisState state;

	private final String channel;

	private final ConcurrentMap<String, List<Consumer<String>>> listeners = new ConcurrentHashMap<>();

	private final Disposable subscription;

	private volatile boolean listening;

	/**
	 * Subscribes to the channel.
	 * @param state the Redis client and key prefix
	 * @param connections where the subscription's own connection comes from
	 */
	public RedisInvalidations(RedisState state, ReactiveRedisConnectionFactory connections) {
		this.state = state;
		this.channel = state.key("invalidations");
		SubscriptionListener subscribed = new SubscriptionListener() {

			@Override
			public void onChannelSubscribed(byte[] channel, long count) {
				RedisInvalidations.this.listening = true;
			}

		};
		this.subscription = Flux.defer(() -> {
			ReactiveRedisMessageListenerContainer container = new ReactiveRedisMessageListenerContainer(connections);
			return container.receive(List.of(new ChannelTopic(this.channel)), subscribed).doFinally(signal -> {
				this.listening = false;
				container.destroyLater().onErrorResume(error -> Mono.empty()).subscribe();
			});
		})
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5)))
			.repeatWhen(ends -> ends.delayElements(Duration.ofSeconds(1)))
			.subscribe(message -> deliver(message.getMessage()));
	}

	@Override
	public Mono<Void> publish(String topic, String key) {
		return this.state.guard(this.state.redis().convertAndSend(this.channel, topic + " " + key)).then();
	}

	@Override
	public void subscribe(String topic, Consumer<String> listener) {
		this.listeners.computeIfAbsent(topic, name -> new CopyOnWriteArrayList<>()).add(listener);
	}

	/** Whether the subscription is up, so messages published now arrive. */
	public boolean isListening() {
		return this.listening;
	}

	/** The channel's name. */
	public String channel() {
		return this.channel;
	}

	private void deliver(String message) {
		String[] parts = message.split(" ");
		List<Consumer<String>> found = this.listeners.get(parts[0]);
		if (found == null) {
			return;
		}
		for (int i = 1; i < parts.length; i++) {
			String key = parts[i];
			if (!key.isEmpty()) {
				found.forEach(listener -> listener.accept(key));
			}
		}
	}

	/** Ends the subscription. */
	@Override
	public void close() {
		this.subscription.dispose();
	}

}
