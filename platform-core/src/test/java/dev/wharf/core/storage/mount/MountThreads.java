package dev.wharf.core.storage.mount;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.wharf.core.storage.Storage;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Counts the threads a mount starts, for the tests of the settings that size a backend's
 * thread pool.
 */
public final class MountThreads {

	private static final AtomicInteger mounts = new AtomicInteger();

	private MountThreads() {
	}

	/**
	 * Makes a mount of the provider's type from {@code properties}, runs
	 * {@code operation} on it {@code operations} times one after the other, and counts
	 * its live threads (named {@code wharf-<type>-<mount>-…}) before closing it. A pool
	 * that starts a thread for each task until it has its most therefore shows its limit
	 * when the operations outnumber it. Keys without a dot are the mount's own
	 * properties; keys with one are set as they are (settings shared by every mount of a
	 * type).
	 * @param provider makes the mount
	 * @param properties the mount's properties and any shared settings
	 * @param operations how many times to run {@code operation}
	 * @param operation one call on the storage, which asserts its own outcome
	 * @return the number of the mount's live threads after the operations
	 */
	public static int started(StorageProvider provider, Map<String, String> properties, int operations,
			Consumer<Storage> operation) {
		// A name of its own each time: the threads of a mount closed before may still be
		// ending.
		String name = "threads" + mounts.incrementAndGet();
		String prefix = MountDefinition.PREFIX + "." + name + ".";
		Map<String, String> source = new LinkedHashMap<>();
		source.put(prefix + "type", provider.type());
		properties.forEach((key, value) -> source.put(key.contains(".") ? key : prefix + key, value));
		MountDefinition definition = new MountDefinition(name, provider.type(),
				new Binder(new MapConfigurationPropertySource(source)));
		try (Storage storage = provider.create(definition)) {
			for (int i = 0; i < operations; i++) {
				operation.accept(storage);
			}
			String threadPrefix = "wharf-" + provider.type() + "-" + name + "-";
			return (int) Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter(thread -> thread.isAlive() && thread.getName().startsWith(threadPrefix))
				.count();
		}
	}

}
