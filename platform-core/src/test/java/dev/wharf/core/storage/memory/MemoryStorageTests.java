package dev.wharf.core.storage.memory;

import java.nio.ByteBuffer;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.HeldFile;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link MemoryStorage}'s size cap.
 */
class MemoryStorageTests {

	@Test
	void aFullStoreRefusesWritesAndGivesTheSpaceBackOnFailure() {
		MemoryStorage storage = new MemoryStorage("cap", 1024 * 1024);
		long empty = storage.usedBytes();
		storage.write(path("/a"), random(1, 600_000, 8192), WriteOptions.replace()).block(TIMEOUT);
		assertThatThrownBy(
				() -> storage.write(path("/b"), random(2, 600_000, 8192), WriteOptions.replace()).block(TIMEOUT))
			.isInstanceOf(QuotaExceededException.class);
		assertThat(storage.stat(path("/b")).onErrorResume(e -> reactor.core.publisher.Mono.empty()).block(TIMEOUT))
			.isNull();
		assertThat(storage.usedBytes()).isEqualTo(empty + 600_000 + MemoryStorage.ENTRY_CHARGE);
		storage.delete(path("/a"), false).block(TIMEOUT);
		assertThat(storage.usedBytes()).isEqualTo(empty);
		storage.write(path("/b"), random(2, 600_000, 8192), WriteOptions.replace()).block(TIMEOUT);
	}

	@Test
	void anAnnouncedLengthOverTheCapIsRefusedBeforeReading() {
		MemoryStorage storage = new MemoryStorage("cap", 1024);
		Flux<org.springframework.core.io.buffer.DataBuffer> never = Flux.error(new AssertionError("content was read"));
		assertThatThrownBy(() -> storage.write(path("/x"), never, WriteOptions.replace().withExpectedLength(10_000))
			.block(TIMEOUT)).isInstanceOf(QuotaExceededException.class);
	}

	@Test
	void emptyFilesAndFoldersStillCount() {
		MemoryStorage storage = new MemoryStorage("cap", 64 * MemoryStorage.ENTRY_CHARGE);
		assertThatThrownBy(() -> {
			for (int i = 0; i < 100; i++) {
				storage.write(path("/e" + i), content(""), WriteOptions.replace()).block(TIMEOUT);
			}
		}).isInstanceOf(QuotaExceededException.class);
		assertThat(storage.usedBytes()).isLessThanOrEqualTo(storage.maxBytes());
	}

	@Test
	void replacingAFileCountsOnlyTheNewVersion() {
		MemoryStorage storage = new MemoryStorage("cap", 1024 * 1024);
		for (int i = 0; i < 20; i++) {
			storage.write(path("/same"), random(i, 500_000, 8192), WriteOptions.replace()).block(TIMEOUT);
		}
		assertThat(storage.usedBytes()).isLessThan(600_000);
	}

	@Test
	void filesAreAlwaysAtHandAsViewsOfTheirChunks() {
		MemoryStorage storage = new MemoryStorage("held", 1024 * 1024);
		byte[] data = StorageTestSupport.randomBytes(3, 0, 150_000);
		storage.write(path("/f"), StorageTestSupport.content(data), WriteOptions.replace()).block(TIMEOUT);
		FileEntry stat = storage.stat(path("/f")).block(TIMEOUT);
		assertThat(storage.statAtHand(path("/f"))).isEqualTo(stat);
		HeldFile held = storage.readAtHand(path("/f"), data.length);
		assertThat(held).isNotNull();
		assertThat(held.entry()).isEqualTo(stat);
		assertThat(held.content()).hasSizeGreaterThan(1);
		assertThat(held.content().stream().mapToLong(ByteBuffer::remaining).sum()).isEqualTo(data.length);
		long used = storage.usedBytes();
		storage.readAtHand(path("/f"), data.length);
		assertThat(storage.usedBytes()).as("views, not copies").isEqualTo(used);
	}

	private static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

}
