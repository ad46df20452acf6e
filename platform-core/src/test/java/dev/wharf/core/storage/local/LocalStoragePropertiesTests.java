package dev.wharf.core.storage.local;

import dev.wharf.core.config.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checks and defaults of a {@code local} mount's properties.
 */
class LocalStoragePropertiesTests {

	@Test
	void defaultThreadsFollowTheCpusButNeverFallBelowTheMinimum() {
		int cpus = Runtime.getRuntime().availableProcessors();
		int threads = new LocalStorageProperties("/srv", true, 0).effectiveIoThreads();
		assertThat(threads).isEqualTo(Math.max(16, 4 * cpus));
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 4, 1024 })
	void configuredThreadsAreKept(int threads) {
		assertThat(new LocalStorageProperties("/srv", true, threads).effectiveIoThreads()).isEqualTo(threads);
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, 1025 })
	void threadsOutOfRangeAreRefusedNamingTheProperty(int threads) {
		assertThatThrownBy(() -> new LocalStorageProperties("/srv", true, threads)).isInstanceOfSatisfying(
				InvalidConfigurationException.class, ex -> assertThat(ex.property()).endsWith("io-threads"));
	}

}
