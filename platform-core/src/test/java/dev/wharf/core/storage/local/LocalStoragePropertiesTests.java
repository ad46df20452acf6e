package dev.wharf.core.storage.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checks and defaults of a {@code local} mount's properties.
 */
class LocalStoragePropertiesTests {

	private static final AtomicInteger mounts = new AtomicInteger();

	@TempDir
	Path root;

	@Test
	void defaultThreadsFollowTheCpusButNeverFallBelowTheMinimum() {
		int cpus = Runtime.getRuntime().availableProcessors();
		int threads = new LocalStorageProperties("/srv", true, 0).effectiveIoThreads(0);
		assertThat(threads).isEqualTo(Math.max(16, 4 * cpus));
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 4, 1024 })
	void configuredThreadsAreKept(int threads) {
		assertThat(new LocalStorageProperties("/srv", true, threads).effectiveIoThreads(0)).isEqualTo(threads);
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, 1025 })
	void threadsOutOfRangeAreRefusedNamingTheProperty(int threads) {
		assertThatThrownBy(() -> new LocalStorageProperties("/srv", true, threads)).isInstanceOfSatisfying(
				InvalidConfigurationException.class, ex -> assertThat(ex.property()).endsWith("io-threads"));
	}

	@Test
	void theIoThreadsPropertySetsTheThreadsOfEveryMountThatLeavesThemAtZero() {
		int cpus = Runtime.getRuntime().availableProcessors();
		assertThat(ioThreadsStarted(Map.of())).isEqualTo(Math.max(16, 4 * cpus));
		assertThat(ioThreadsStarted(Map.of(LocalStorageProperties.IO_THREADS, "3"))).isEqualTo(3);
		assertThat(ioThreadsStarted(Map.of(LocalStorageProperties.IO_THREADS, "3", "io-threads", "5"))).isEqualTo(5);
	}

	@ParameterizedTest
	@CsvSource({ "1025", "-1", "four", "''" })
	void aBadIoThreadsPropertyStopsTheMountNamingTheProperty(String value) {
		assertThatThrownBy(() -> ioThreadsStarted(Map.of(LocalStorageProperties.IO_THREADS, value)))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo(LocalStorageProperties.IO_THREADS));
	}

	/**
	 * How many I/O threads a mount starts for 60 operations one after the other: its pool
	 * starts a thread for each task until it has its most, so the count is the limit.
	 * Keys of {@code extra} without a dot are the mount's own properties.
	 */
	private int ioThreadsStarted(Map<String, String> extra) {
		// A name of its own each time: the threads of the mount closed before may still
		// be ending.
		String name = "iothreads" + mounts.incrementAndGet();
		String prefix = MountDefinition.PREFIX + "." + name + ".";
		Map<String, String> source = new LinkedHashMap<>();
		source.put(prefix + "type", LocalStorageProvider.TYPE);
		source.put(prefix + "root", this.root.toString());
		extra.forEach((key, value) -> source.put(key.contains(".") ? key : prefix + key, value));
		MountDefinition definition = new MountDefinition(name, LocalStorageProvider.TYPE,
				new Binder(new MapConfigurationPropertySource(source)));
		try (Storage storage = new LocalStorageProvider().create(definition)) {
			for (int i = 0; i < 60; i++) {
				storage.stat(StoragePath.root()).block(Duration.ofSeconds(30));
			}
			return (int) Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter(thread -> thread.isAlive() && thread.getName().startsWith("wharf-local-" + name + "-"))
				.count();
		}
	}

}
