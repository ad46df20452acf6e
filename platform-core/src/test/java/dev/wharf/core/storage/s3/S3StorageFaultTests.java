package dev.wharf.core.storage.s3;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code s3} backend when its server dies: S3Proxy keeping objects as files, killed
 * with {@code SIGKILL} in the middle of an upload or a download and started again on the
 * same port with the same files.
 */
class S3StorageFaultTests {

	private static final long MB = 1024 * 1024;

	@TempDir
	Path serverDir;

	private S3ProxyProcess server;

	private String prefix;

	private S3Storage storage;

	@BeforeEach
	void start() throws Exception {
		this.server = S3ProxyProcess.start(S3ProxyProcess.Backend.FILESYSTEM, this.serverDir);
		this.server.createBucket(S3TestMounts.BUCKET);
		this.prefix = S3TestMounts.freshPrefix();
		this.storage = S3TestMounts.create(this.server, this.prefix, 1000);
	}

	@AfterEach
	void stop() {
		this.storage.close();
		this.server.close();
	}

	@Test
	void aServerKilledMidUploadLeavesNoObjectAndTheStartUpSweepRemovesTheUpload() throws Exception {
		Sinks.Many<DataBuffer> sink = Sinks.many().unicast().onBackpressureBuffer();
		CompletableFuture<FileEntry> upload = this.storage
			.write(StoragePath.parse("/interrupted"), sink.asFlux(), WriteOptions.replace())
			.toFuture();
		for (int i = 0; i < 6 * 16; i++) {
			sink.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(randomBytes(3, i, 64 * 1024)));
		}
		// The first part is stored and the second waits for the rest of the content: the
		// upload is half done.
		// (Killed while it writes a part, S3Proxy's file store keeps a torn part that its
		// own abort fails on;
		// while it writes one, its ListParts may answer 400.)
		Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> S3TestMounts.openUploads(this.server, this.prefix)
				.stream()
				.anyMatch(open -> !this.server.client()
					.listParts(b -> b.bucket(S3TestMounts.BUCKET).key(open.key()).uploadId(open.uploadId()))
					.parts()
					.isEmpty()));
		this.server.kill();
		sink.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(randomBytes(3, 97, 64 * 1024)));
		sink.tryEmitComplete();
		assertThatThrownBy(() -> upload.get(60, java.util.concurrent.TimeUnit.SECONDS))
			.hasCauseInstanceOf(BackendUnavailableException.class);
		this.server.restart();
		assertThatThrownBy(() -> this.server.client()
			.headObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/interrupted")))
			.isInstanceOf(software.amazon.awssdk.services.s3.model.S3Exception.class);
		assertThatThrownBy(() -> this.server.client()
			.getObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/interrupted")))
			.isInstanceOf(NoSuchKeyException.class);
		// The abort could not reach the dead server; the next start's sweep removes what
		// is left.
		assertThat(S3TestMounts.openUploads(this.server, this.prefix)).hasSize(1);
		S3StorageProperties properties = this.server.properties(S3TestMounts.BUCKET, this.prefix,
				S3TestMounts.PART_SIZE);
		try (S3Storage restarted = S3StorageProvider.create("test", properties, S3Storage.Limits.of(properties))) {
			restarted.abortStaleUploads(Duration.ofHours(24), Clock.offset(Clock.systemUTC(), Duration.ofDays(2)))
				.block(TIMEOUT);
		}
		assertThat(S3TestMounts.openUploads(this.server, this.prefix)).isEmpty();
	}

	@Test
	void aServerKilledMidStreamedUploadLeavesNoObject() throws Exception {
		long size = 32 * MB;
		AtomicLong sent = new AtomicLong();
		Sinks.Many<DataBuffer> sink = Sinks.many().unicast().onBackpressureBuffer();
		CompletableFuture<FileEntry> upload = this.storage
			.write(StoragePath.parse("/streamed"),
					sink.asFlux().doOnNext(buffer -> sent.addAndGet(buffer.readableByteCount())),
					WriteOptions.replace().withExpectedLength(size))
			.toFuture();
		for (int i = 0; i < 6 * 16; i++) {
			sink.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(randomBytes(4, i, 64 * 1024)));
		}
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> sent.get() == 6 * MB);
		this.server.kill();
		sink.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(randomBytes(4, 97, 64 * 1024)));
		assertThatThrownBy(() -> upload.get(60, java.util.concurrent.TimeUnit.SECONDS))
			.hasCauseInstanceOf(BackendUnavailableException.class);
		this.server.restart();
		assertThatThrownBy(
				() -> this.server.client().getObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/streamed")))
			.isInstanceOf(NoSuchKeyException.class);
		assertThat(S3TestMounts.openUploads(this.server, this.prefix)).isEmpty();
	}

	@Test
	void aServerKilledMidDownloadFailsTheReadInsteadOfEndingItShort() throws Exception {
		long size = 32 * MB;
		this.storage.write(StoragePath.parse("/large"), random(8, size, 64 * 1024), WriteOptions.replace())
			.block(TIMEOUT);
		AtomicLong received = new AtomicLong();
		StepVerifier.create(this.storage.read(StoragePath.parse("/large"), ByteRange.all()).doOnNext(buffer -> {
			received.addAndGet(buffer.readableByteCount());
			DataBufferUtils.release(buffer);
		}), 1)
			.expectNextCount(1)
			.then(this.server::kill)
			.thenRequest(Long.MAX_VALUE)
			.thenConsumeWhile(buffer -> true)
			.expectError(BackendUnavailableException.class)
			.verify(TIMEOUT);
		assertThat(received.get()).isLessThan(size);
	}

	@Test
	void aDeadServerIsUnavailableAndAServerThatCameBackIsUsedAgain() throws Exception {
		this.storage.write(StoragePath.parse("/kept"), random(1, 1000, 1000), WriteOptions.replace()).block(TIMEOUT);
		this.server.kill();
		assertThatThrownBy(() -> this.storage.stat(StoragePath.parse("/kept")).block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> this.storage.checkHealth().block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> this.storage.read(StoragePath.parse("/kept"), ByteRange.all()).blockLast(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		this.server.restart();
		assertThat(this.storage.stat(StoragePath.parse("/kept")).block(TIMEOUT).size()).isEqualTo(1000);
		assertThat(this.storage.read(StoragePath.parse("/kept"), ByteRange.all()).map(buffer -> {
			int bytes = buffer.readableByteCount();
			DataBufferUtils.release(buffer);
			return (long) bytes;
		}).reduce(0L, Long::sum).block(TIMEOUT)).isEqualTo(1000);
		this.storage.checkHealth().block(TIMEOUT);
	}

}
