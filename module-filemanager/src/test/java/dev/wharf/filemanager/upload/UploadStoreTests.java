package dev.wharf.filemanager.upload;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link UploadStore} against a memory mount.
 */
class UploadStoreTests {

	private final MemoryStorage storage = new MemoryStorage("test", 64 << 20);

	private final UploadStore store = new UploadStore(Duration.ofHours(1), 1000, Clock.systemUTC());

	@Test
	void aBodyIsStoredInSegmentsAndTheOffsetIsTheirSum() {
		byte[] file = randomBytes(1, 0, 4500);
		UploadState state = this.store.create(this.storage, "u", StoragePath.parse("/target.bin"), file.length, "")
			.block(TIMEOUT);
		Flux<org.springframework.core.io.buffer.DataBuffer> body = Flux.range(0, 9)
			.map(i -> org.springframework.core.io.buffer.DefaultDataBufferFactory.sharedInstance
				.wrap(Arrays.copyOfRange(file, i * 300, i * 300 + 300)));
		assertThat(this.store.append(this.storage, state, 0, body, null).block(TIMEOUT)).isEqualTo(2700);
		UploadStore.Progress progress = this.store.progress(this.storage, state).block(TIMEOUT);
		assertThat(progress.offset()).isEqualTo(2700);
		// Segments close after the buffer that reaches 1000 bytes: 1200, 1200, then the
		// last 300.
		assertThat(progress.chunks()).extracting(entry -> entry.size()).containsExactly(1200L, 1200L, 300L);
		this.store.append(this.storage, state, 2700, content(Arrays.copyOfRange(file, 2700, file.length)), null)
			.block(TIMEOUT);
		progress = this.store.progress(this.storage, state).block(TIMEOUT);
		this.store.complete(this.storage, state, progress).block(TIMEOUT);
		assertThat(bytes(this.storage.read(StoragePath.parse("/target.bin"), ByteRange.all()))).isEqualTo(file);
		// Complete: the chunks are gone, the upload answers with its full length until it
		// expires.
		progress = this.store.progress(this.storage, state).block(TIMEOUT);
		assertThat(progress.complete()).isTrue();
		assertThat(progress.offset()).isEqualTo(file.length);
		assertThat(progress.chunks()).isEmpty();
		assertThat(this.storage.list(UploadStore.UPLOADS.resolve(state.id()))
			.map(entry -> entry.name())
			.collectList()
			.block(TIMEOUT)).containsExactlyInAnyOrder("info", "done");
		assertThat(this.store.sweep(this.storage).block(TIMEOUT)).isZero();
		UploadStore later = new UploadStore(Duration.ofHours(1), 1000,
				Clock.offset(Clock.systemUTC(), Duration.ofHours(2)));
		assertThat(later.sweep(this.storage).block(TIMEOUT)).isEqualTo(1);
		assertThat(this.storage.list(UploadStore.UPLOADS).collectList().block(TIMEOUT)).isEmpty();
		assertThat(bytes(this.storage.read(StoragePath.parse("/target.bin"), ByteRange.all()))).isEqualTo(file);
	}

	@Test
	void aChunkIsNeverWrittenTwice() {
		UploadState state = this.store.create(this.storage, "u", StoragePath.parse("/t"), 10, "").block(TIMEOUT);
		this.store.append(this.storage, state, 0, content("abc"), null).block(TIMEOUT);
		// A second writer at the same offset (another replica, a retried request) cannot
		// both succeed.
		assertThatThrownBy(() -> this.store.append(this.storage, state, 0, content("xyz"), null).block(TIMEOUT))
			.isInstanceOf(dev.wharf.core.storage.AlreadyExistsException.class);
		assertThat(this.store.progress(this.storage, state).block(TIMEOUT).offset()).isEqualTo(3);
	}

	@Test
	void expiredAndBrokenUploadsAreSweptAndOthersKept() {
		Instant now = Instant.now();
		UploadStore past = new UploadStore(Duration.ofHours(1), 1000,
				Clock.fixed(now.minus(Duration.ofHours(3)), ZoneOffset.UTC));
		UploadState old = past.create(this.storage, "u", StoragePath.parse("/old"), 10, "").block(TIMEOUT);
		UploadState fresh = this.store.create(this.storage, "u", StoragePath.parse("/fresh"), 10, "").block(TIMEOUT);
		this.storage.createDirectory(UploadStore.UPLOADS.resolve("AAAAAAAAAAAAAAAAAAAAAA")).block(TIMEOUT);
		this.storage
			.write(UploadStore.UPLOADS.resolve("AAAAAAAAAAAAAAAAAAAAAA").resolve("info"), content("garbage"),
					WriteOptions.replace())
			.block(TIMEOUT);
		UploadStore later = new UploadStore(Duration.ofHours(1), 1000,
				Clock.fixed(now.plus(Duration.ofMinutes(30)), ZoneOffset.UTC));
		assertThat(later.sweep(this.storage).block(TIMEOUT)).isEqualTo(1);
		assertThat(this.store.load(this.storage, old.id()).block(TIMEOUT)).isNull();
		assertThat(this.store.load(this.storage, fresh.id()).block(TIMEOUT)).isNotNull();
		// A folder without a readable state goes once it is older than an upload may
		// live.
		UploadStore muchLater = new UploadStore(Duration.ofHours(1), 1000,
				Clock.fixed(now.plus(Duration.ofHours(2)), ZoneOffset.UTC));
		assertThat(muchLater.sweep(this.storage).block(TIMEOUT)).isEqualTo(2);
		assertThat(this.storage.list(UploadStore.UPLOADS).collectList().block(TIMEOUT)).isEmpty();
	}

	@Test
	void theStateRoundTripsAndRejectsGarbage() {
		UploadState state = new UploadState("id", "user", StoragePath.parse("/a b/c=d"), 42, Instant.ofEpochMilli(1234),
				"filename YQ==,x");
		assertThat(UploadState.parse(state.toBytes())).isEqualTo(state);
		assertThatThrownBy(() -> UploadState.parse("nonsense".getBytes()))
			.isInstanceOf(dev.wharf.core.storage.InvalidContentException.class);
	}

}
