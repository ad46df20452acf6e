package dev.wharf.core.state;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import reactor.core.publisher.Mono;

/**
 * {@link Invalidations} within this process: the default for one replica. Listeners are
 * called on the publishing thread before {@link #publish} completes. Thread-safe.
 */
public final class InProcessInvalidations implements Invalidations {

	private final ConcurrentMap<String, List<Consumer<String>>> listeners = new ConcurrentHashMap<>();

	@Override
	public Mono<Void> publish(String topic, String key) {
		return Mono.fromRunnable(() -> deliver(topic, key));
	}

	@Override
	public void subscribe(String topic, Consumer<String> listener) {
		this.listeners.computeIfAbsent(topic, name -> new CopyOnWriteArrayList<>()).add(listener);
	}

	/**
	 * Calls the listeners of a topic.
	 * @param topic the topic
	 * @param key the changed key
	 */
	void deliver(String topic, String key) {
		List<Consumer<String>> found = this.listeners.get(topic);
		if (found != null) {
			found.forEach(listener -> listener.accept(key));
		}
	}

}
