package dev.wharf.core.storage.metrics;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.HeldFile;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link MeteredStorage}: an answer at hand counts as the operations it stands
 * for, on the same meters.
 */
class MeteredStorageTests {

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final MeteredStorage storage = new MeteredStorage(new MemoryStorage("m", 1 << 20), this.registry, "m", "memory");

	final StoragePath file = StoragePath.parse("/f");

	@Test
	void aFileReadAtHandCountsAsTheStatAndReadItStandsFor() {
		byte[] data = StorageTestSupport.randomBytes(1, 0, 4096);
		this.storage.write(this.file, StorageTestSupport.content(data), WriteOptions.replace()).block(TIMEOUT);
		this.storage.stat(this.file).block(TIMEOUT);
		assertThat(StorageTestSupport.bytes(this.storage.read(this.file, ByteRange.all()))).isEqualTo(data);
		assertCounted(1, 1, 4096);

		HeldFile held = this.storage.readAtHand(this.file, Long.MAX_VALUE);
		assertThat(held).isNotNull();
		assertCounted(2, 2, 2 * 4096);
		assertThat(this.storage.statAtHand(this.file)).isEqualTo(held.entry());
		assertCounted(3, 2, 2 * 4096);
	}

	@Test
	void whatIsNotAtHandIsNotCountedUntilTheAsynchronousWayCountsIt() {
		assertThat(this.storage.statAtHand(this.file)).isNull();
		assertThat(this.storage.readAtHand(this.file, Long.MAX_VALUE)).isNull();
		assertThat(this.registry.find("wharf.storage.operations").timers()).isEmpty();
		assertThatThrownBy(() -> this.storage.stat(this.file).block(TIMEOUT)).isInstanceOf(NotFoundException.class);
		assertThat(timer("stat", "not_found").count()).isEqualTo(1);
	}

	private void assertCounted(long stats, long reads, double bytes) {
		assertThat(timer("stat", "success").count()).as("stats").isEqualTo(stats);
		assertThat(timer("read", "success").count()).as("reads").isEqualTo(reads);
		assertThat(this.registry.get("wharf.storage.bytes").tag("direction", "read").counter().count()).as("bytes")
			.isEqualTo(bytes);
	}

	private Timer timer(String operation, String outcome) {
		return this.registry.get("wharf.storage.operations")
			.tag("mount", "m")
			.tag("type", "memory")
			.tag("operation", operation)
			.tag("outcome", outcome)
			.timer();
	}

}
