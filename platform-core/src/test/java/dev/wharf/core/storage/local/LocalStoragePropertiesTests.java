package dev.wharf.core.storage.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checks and defaults of a {@code local} mount's properties.
 */
class LocalStoragePropertiesTests {

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
	 * How many I/O threads a mount starts for 60 operations one after the other (see
	 * {@link MountThreads}). Keys of {@code extra} without a dot are the mount's own
	 * properties.
	 */
	private int ioThreadsStarted(Map<String, String> extra) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("root", this.root.toString());
		properties.putAll(extra);
		return MountThreads.started(new LocalStorageProvider(), properties, 60,
				(storage) -> storage.stat(StoragePath.root()).block(Duration.ofSeconds(30)));
	}

}
