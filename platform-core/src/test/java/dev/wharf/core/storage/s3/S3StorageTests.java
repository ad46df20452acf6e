package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.mount.MountDefinition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the {@code s3} backend does beyond the storage contract, against a real S3 server
 * (S3Proxy in memory): multipart uploads and copies, server-side concatenation, listings
 * across pages and their bound, folders other tools made, the mount's prefix, the
 * start-up sweep, throttling, credentials, health, and which threads deliver results.
 */
class S3StorageTests {

	private static final long MB = 1024 * 1024;

	@TempDir
	static Path serverDir;

	private static S3ProxyProcess server;

	private String prefix;

	private S3Storage storage;

	@BeforeAll
	static void startServer() throws Exception {
		server = S3ProxyProcess.start(S3ProxyProcess.Backend.TRANSIENT, serverDir);
		server.createBucket(S3TestMounts.BUCKET);
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@BeforeEach
	void createStorage() {
		this.prefix = S3TestMounts.freshPrefix();
		this.storage = S3TestMounts.create(server, this.prefix, 1000);
	}

	@AfterEach
	void closeStorage() {
		this.storage.close();
		S3TestMounts.awaitNoOpenUploads(server, this.prefix);
	}

	private static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

	private FileEntry write(S3Storage target, String path, long seed, long size) {
		return target.write(path(path), random(seed, size, 64 * 1024), WriteOptions.replace()).block(TIMEOUT);
	}

	private String eTag(String path) {
		return server.client().headObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + path)).eTag();
	}

	@Test
	void aFileThatFitsOnePartIsOneObjectAndALargerOneAMultipartUpload() {
		write(this.storage, "/one", 1, 5 * MB);
		write(this.storage, "/two", 2, 5 * MB + 1);
		// S3 gives a multipart object an ETag ending in the number of its parts.
		assertThat(eTag("/one")).doesNotContain("-");
		assertThat(eTag("/two")).endsWith("-2\"");
		assertThat(sha256(this.storage.read(path("/two"), ByteRange.all())).block(TIMEOUT))
			.isEqualTo(sha256(random(2, 5 * MB + 1, 64 * 1024)).block(TIMEOUT));
	}

	@Test
	void aFileOfAnnouncedLengthAboveOnePartIsStreamedAsOneObject() {
		long size = 12 * MB;
		FileEntry written = this.storage
			.write(path("/known"), random(21, size, 64 * 1024), WriteOptions.createNew().withExpectedLength(size))
			.block(TIMEOUT);
		assertThat(written.size()).isEqualTo(size);
		assertThat(eTag("/known")).doesNotContain("-");
		assertThat(sha256(this.storage.read(path("/known"), ByteRange.all())).block(TIMEOUT))
			.isEqualTo(sha256(random(21, size, 64 * 1024)).block(TIMEOUT));
		assertThatThrownBy(() -> this.storage
			.write(path("/known"), random(22, size, 64 * 1024), WriteOptions.createNew().withExpectedLength(size))
			.block(TIMEOUT)).isInstanceOf(AlreadyExistsException.class);
	}

	@Test
	void aStreamedUploadThatEndsShortRunsLongOrIsCancelledLeavesTheOldObject() {
		write(this.storage, "/kept", 1, 6 * MB);
		String old = sha256(random(1, 6 * MB, 64 * 1024)).block(TIMEOUT);
		assertThatThrownBy(() -> this.storage
			.write(path("/kept"), random(2, 7 * MB, 64 * 1024), WriteOptions.replace().withExpectedLength(8 * MB))
			.block(TIMEOUT)).isInstanceOf(InvalidContentException.class).hasMessageContaining("ended after");
		assertThatThrownBy(() -> this.storage
			.write(path("/kept"), random(3, 9 * MB, 64 * 1024), WriteOptions.replace().withExpectedLength(8 * MB))
			.block(TIMEOUT)).isInstanceOf(InvalidContentException.class).hasMessageContaining("longer than");
		AtomicLong sent = new AtomicLong();
		Disposable upload = this.storage
			.write(path("/kept"),
					random(4, 4 * MB, 64 * 1024).doOnNext(buffer -> sent.addAndGet(buffer.readableByteCount()))
						.concatWith(Flux.never()),
					WriteOptions.replace().withExpectedLength(8 * MB))
			.subscribe();
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> sent.get() == 4 * MB);
		upload.dispose();
		assertThat(sha256(this.storage.read(path("/kept"), ByteRange.all())).block(TIMEOUT)).isEqualTo(old);
		assertThatThrownBy(() -> this.storage
			.write(path("/fresh"), random(5, 7 * MB, 64 * 1024), WriteOptions.createNew().withExpectedLength(8 * MB))
			.block(TIMEOUT)).isInstanceOf(InvalidContentException.class);
		assertThatThrownBy(() -> this.storage.stat(path("/fresh")).block(TIMEOUT))
			.isInstanceOf(NotFoundException.class);
	}

	@Test
	void concatenationCopiesLargePartsOnTheServerAndStreamsSmallOnes() {
		long[] sizes = { 6 * MB, MB, 2 * MB, 7 * MB, 3 * MB };
		List<StoragePath> sources = new ArrayList<>();
		List<Flux<DataBuffer>> expected = new ArrayList<>();
		for (int i = 0; i < sizes.length; i++) {
			write(this.storage, "/c" + i, 100 + i, sizes[i]);
			sources.add(path("/c" + i));
			expected.add(random(100 + i, sizes[i], 64 * 1024));
		}
		long total = java.util.Arrays.stream(sizes).sum();
		FileEntry joined = this.storage
			.concatenate(sources, path("/joined"), WriteOptions.createNew().withExpectedLength(total))
			.block(TIMEOUT);
		assertThat(joined.size()).isEqualTo(total);
		assertThat(sha256(this.storage.read(path("/joined"), ByteRange.all())).block(TIMEOUT))
			.isEqualTo(sha256(Flux.concat(expected)).block(TIMEOUT));
		// 6 MB copied, 1 + 2 + 2 MB streamed, 5 MB copied, 3 MB streamed: four parts.
		assertThat(eTag("/joined")).endsWith("-4\"");
		assertThat(this.storage.stat(path("/c3")).block(TIMEOUT).size()).isEqualTo(7 * MB);
	}

	@Test
	void copiesAboveTheCopyLimitAreMultipartCopiesOnTheServer() {
		S3StorageProperties properties = server.properties(S3TestMounts.BUCKET, this.prefix, S3TestMounts.PART_SIZE);
		try (S3Storage small = S3StorageProvider.create("test", properties,
				new S3Storage.Limits(5 * MB, 4, 1000, 1000, 6 * MB, 5 * MB))) {
			write(small, "/big", 7, 13 * MB);
			String digest = sha256(random(7, 13 * MB, 64 * 1024)).block(TIMEOUT);
			small.copy(path("/big"), path("/copy"), false).block(TIMEOUT);
			assertThat(eTag("/copy")).endsWith("-3\"");
			small.createDirectory(path("/folder")).block(TIMEOUT);
			small.move(path("/copy"), path("/folder/moved"), false).block(TIMEOUT);
			assertThat(sha256(small.read(path("/folder/moved"), ByteRange.all())).block(TIMEOUT)).isEqualTo(digest);
			assertThat(sha256(small.read(path("/big"), ByteRange.all())).block(TIMEOUT)).isEqualTo(digest);
			assertThatThrownBy(() -> small.stat(path("/copy")).block(TIMEOUT)).isInstanceOf(NotFoundException.class);
		}
	}

	@Test
	void aFolderIsListedAcrossPagesUpToMaxListEntries() {
		int count = 2_500;
		IntStream.range(0, count)
			.parallel()
			.forEach(i -> server.client()
				.putObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/many/f" + i),
						RequestBody.fromString("x")));
		Set<String> names = ConcurrentHashMap.newKeySet();
		this.storage.list(path("/many")).doOnNext(entry -> names.add(entry.name())).blockLast(TIMEOUT);
		assertThat(names).hasSize(count).contains("f0", "f2499");
		S3StorageProperties properties = server.properties(S3TestMounts.BUCKET, this.prefix, S3TestMounts.PART_SIZE);
		try (S3Storage bounded = S3StorageProvider.create("test", properties,
				new S3Storage.Limits(5 * MB, 4, 2_000, 1000, 5L * 1024 * MB, 512 * MB))) {
			assertThatThrownBy(() -> bounded.list(path("/many")).blockLast(TIMEOUT))
				.isInstanceOf(QuotaExceededException.class)
				.hasMessageContaining("2000");
		}
	}

	@Test
	void foldersThatOtherToolsLeftWithoutMarkersAreFolders() {
		server.client()
			.putObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/made/by/tool.txt"),
					RequestBody.fromString("t"));
		assertThat(this.storage.stat(path("/made")).block(TIMEOUT).type()).isEqualTo(EntryType.DIRECTORY);
		assertThat(this.storage.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("made");
		assertThat(this.storage.list(path("/made/by")).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("tool.txt");
		this.storage.write(path("/made/by/mine"), content("m"), WriteOptions.createNew()).block(TIMEOUT);
		assertThat(text(this.storage.read(path("/made/by/mine"), ByteRange.all()))).isEqualTo("m");
	}

	@Test
	void theMountSeesOnlyItsPrefix() {
		server.client()
			.putObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "-sibling/secret"),
					RequestBody.fromString("s"));
		server.client()
			.putObject(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "-x"), RequestBody.fromString("s"));
		this.storage.write(path("/mine"), content("m"), WriteOptions.replace()).block(TIMEOUT);
		assertThat(this.storage.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("mine");
		assertThat(server.client()
			.getObjectAsBytes(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/mine"))
			.asUtf8String()).isEqualTo("m");
	}

	@Test
	void aCancelledMultipartUploadIsAbortedAndLeavesNoObject() throws Exception {
		Sinks.Many<DataBuffer> sink = Sinks.many().unicast().onBackpressureBuffer();
		Disposable upload = this.storage.write(path("/cancelled"), sink.asFlux(), WriteOptions.replace()).subscribe();
		for (int i = 0; i < 6 * 16; i++) {
			sink.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(randomBytes(5, i, 64 * 1024)));
		}
		Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.until(() -> !S3TestMounts.openUploads(server, this.prefix).isEmpty());
		upload.dispose();
		S3TestMounts.awaitNoOpenUploads(server, this.prefix);
		assertThatThrownBy(() -> this.storage.stat(path("/cancelled")).block(TIMEOUT))
			.isInstanceOf(NotFoundException.class);
	}

	@Test
	void staleMultipartUploadsUnderThePrefixAreAbortedAtStartUp() {
		String stale = server.client()
			.createMultipartUpload(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "/crashed"))
			.uploadId();
		String other = server.client()
			.createMultipartUpload(b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "-other/crashed"))
			.uploadId();
		Map<String, String> configuration = new HashMap<>(server.mountProperties("swept", S3TestMounts.BUCKET));
		configuration.put("wharf.storage.mounts.swept.prefix", this.prefix);
		configuration.put("wharf.storage.mounts.swept.stale-upload-age", "1h");
		MountDefinition definition = new MountDefinition("swept", "s3",
				new Binder(new MapConfigurationPropertySource(configuration)));
		// S3Proxy reports every upload as begun just now: the provider's clock is moved
		// instead.
		try (Storage young = new S3StorageProvider(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(30)))
			.create(definition)) {
			assertThat(((S3Storage) young).abortStaleUploads(Duration.ofHours(1), Clock.systemUTC()).block(TIMEOUT))
				.isZero();
			assertThat(S3TestMounts.openUploads(server, this.prefix + "/")).extracting(upload -> upload.uploadId())
				.containsExactly(stale);
		}
		try (Storage swept = new S3StorageProvider(Clock.offset(Clock.systemUTC(), Duration.ofHours(2)))
			.create(definition)) {
			S3TestMounts.awaitNoOpenUploads(server, this.prefix + "/");
			assertThat(S3TestMounts.openUploads(server, this.prefix + "-other/"))
				.extracting(upload -> upload.uploadId())
				.containsExactly(other);
		}
		server.client()
			.abortMultipartUpload(
					b -> b.bucket(S3TestMounts.BUCKET).key(this.prefix + "-other/crashed").uploadId(other));
	}

	@Test
	void throttlingIsRetriedWithBackOffThenReportedAsUnavailable() throws Exception {
		this.storage.write(path("/t"), content("t"), WriteOptions.replace()).block(TIMEOUT);
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 2); S3Storage behind = throttled(relay)) {
			assertThat(behind.stat(path("/t")).block(TIMEOUT).size()).isEqualTo(1);
			assertThat(relay.refused()).isEqualTo(2);
		}
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 100); S3Storage behind = throttled(relay)) {
			assertThatThrownBy(() -> behind.stat(path("/t")).block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("try again");
			// Three attempts in all, the mount's max-attempts.
			assertThat(relay.refused()).isEqualTo(3);
		}
	}

	private S3Storage throttled(ThrottlingRelay relay) {
		S3StorageProperties properties = new S3StorageProperties(S3TestMounts.BUCKET, this.prefix,
				relay.endpoint().toString(), "us-east-1", true, S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY,
				Duration.ofSeconds(5), Duration.ofSeconds(30), 4, 3, S3TestMounts.PART_SIZE, 4, 1000, Duration.ZERO);
		return S3StorageProvider.create("throttled", properties, S3Storage.Limits.of(properties));
	}

	@Test
	void wrongCredentialsAreAccessDeniedAndTheMountIsDown() {
		S3StorageProperties properties = new S3StorageProperties(S3TestMounts.BUCKET, this.prefix,
				server.endpoint().toString(), "us-east-1", true, S3ProxyProcess.ACCESS_KEY, "not-the-secret",
				Duration.ofSeconds(5), Duration.ofSeconds(30), 4, 1, S3TestMounts.PART_SIZE, 4, 1000, Duration.ZERO);
		try (S3Storage denied = S3StorageProvider.create("denied", properties, S3Storage.Limits.of(properties))) {
			assertThatThrownBy(() -> denied.stat(path("/any")).block(TIMEOUT)).isInstanceOf(AccessDeniedException.class)
				.hasMessageNotContaining("not-the-secret");
			assertThatThrownBy(() -> denied.checkHealth().block(TIMEOUT)).isInstanceOf(AccessDeniedException.class);
			assertThatThrownBy(() -> denied.read(path("/any"), ByteRange.all()).blockLast(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class)
				.hasMessageNotContaining("not-the-secret");
		}
	}

	@Test
	void healthSaysWhetherTheBucketIsThere() {
		this.storage.checkHealth().block(TIMEOUT);
		S3StorageProperties properties = server.properties("no-such-bucket", "", S3TestMounts.PART_SIZE);
		try (S3Storage missing = S3StorageProvider.create("missing", properties, S3Storage.Limits.of(properties))) {
			assertThatThrownBy(() -> missing.checkHealth().block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("bucket of mount 'missing' does not exist");
			assertThatThrownBy(() -> missing.read(path("/any"), ByteRange.all()).blockLast(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("bucket of mount 'missing' does not exist");
		}
	}

	/**
	 * Results arrive on threads of the mount's own: SDK answers on its callback pool,
	 * downloaded bytes on its own event loops (where Reactor Netty receives them), never
	 * on the CRT's event loops, Reactor Netty's shared ones or the caller's thread.
	 */
	@Test
	void resultsArriveOnTheMountsOwnThreadsNeverTheCrtsOrTheCallers() throws Exception {
		write(this.storage, "/threads", 9, 3 * MB);
		Set<String> threads = ConcurrentHashMap.newKeySet();
		Set<String> bytes = ConcurrentHashMap.newKeySet();
		CountDownLatch done = new CountDownLatch(1);
		this.storage.read(path("/threads"), ByteRange.all())
			.doOnNext(buffer -> bytes.add(Thread.currentThread().getName()))
			.doOnNext(DataBufferUtils::release)
			.then(this.storage.stat(path("/threads")))
			.doOnNext(entry -> threads.add(Thread.currentThread().getName()))
			.subscribe(entry -> done.countDown());
		assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(threads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("wharf-s3-test-"));
		assertThat(bytes).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("wharf-s3-test-io-"));
	}

	@Test
	void readsAreRetriedWithBackOffOnlyBeforeTheirFirstByteThenReportedAsUnavailable() throws Exception {
		this.storage.write(path("/r"), content("read me"), WriteOptions.replace()).block(TIMEOUT);
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 2); S3Storage behind = throttled(relay)) {
			assertThat(text(behind.read(path("/r"), ByteRange.of(5, 2)))).isEqualTo("me");
			assertThat(relay.refused()).isEqualTo(2);
		}
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 100); S3Storage behind = throttled(relay)) {
			assertThatThrownBy(() -> behind.read(path("/r"), ByteRange.all()).blockLast(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("overloaded, try again");
			assertThat(relay.refused()).isEqualTo(3);
		}
	}

	@Test
	void aReadSignedForTheWrongRegionFollowsTheBucketToItsOwnWhereTheClientDoes() throws Exception {
		this.storage.write(path("/far"), content("far away"), WriteOptions.replace()).block(TIMEOUT);
		String key = this.prefix + "/far";
		BlockingScheduler callbacks = BlockingScheduler.create("wharf-s3-region", 2, 100);
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 1,
				ThrottlingRelay.permanentRedirect("us-east-1"));
				S3ObjectStreams reader = misdirected(relay, true, callbacks)) {
			assertThat(text(reader.read(path("/far"), key, null))).isEqualTo("far away");
			assertThat(relay.refused()).isOne();
		}
		// A mount with its region configured fails there, as the SDK's client does.
		try (ThrottlingRelay relay = new ThrottlingRelay(server.port(), 1,
				ThrottlingRelay.permanentRedirect("us-east-1"));
				S3ObjectStreams reader = misdirected(relay, false, callbacks)) {
			assertThatThrownBy(() -> reader.read(path("/far"), key, null).blockLast(TIMEOUT))
				.isInstanceOf(StorageIoException.class)
				.hasMessageContaining("301 PermanentRedirect");
		}
		finally {
			callbacks.dispose();
		}
	}

	/** A reader that signs for eu-west-1 behind a relay. */
	private S3ObjectStreams misdirected(ThrottlingRelay relay, boolean followRegion, Scheduler callbacks) {
		S3StorageProperties properties = properties(relay.endpoint(), "eu-west-1", 4, Duration.ofSeconds(30), 1);
		return S3ObjectStreams.create("region", S3TestMounts.BUCKET, properties,
				region -> S3Clients.presigner(properties, region), Region.EU_WEST_1, followRegion, callbacks);
	}

	@Test
	void aCancelledReadGivesItsConnectionBack() {
		write(this.storage, "/long", 11, 16 * MB);
		String digest = sha256(random(11, 16 * MB, 64 * 1024)).block(TIMEOUT);
		// One connection, waited for at most a second: a read that kept it after its
		// cancel would make the next one fail.
		try (S3Storage single = mount("single", server.endpoint(), 1, Duration.ofSeconds(1), 1)) {
			for (int i = 0; i < 3; i++) {
				assertThat(single.read(path("/long"), ByteRange.all())
					.take(1)
					.doOnNext(DataBufferUtils::release)
					.count()
					.block(TIMEOUT)).isOne();
			}
			assertThat(sha256(single.read(path("/long"), ByteRange.of(0, 16 * MB))).block(TIMEOUT)).isEqualTo(digest);
		}
	}

	@Test
	void aServerThatSendsNothingFailsTheReadAfterTheReadTimeout() throws Exception {
		List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread acceptor = new Thread(() -> {
				while (!silent.isClosed()) {
					try {
						accepted.add(silent.accept());
					}
					catch (IOException closed) {
						return;
					}
				}
			}, "silent-server");
			acceptor.setDaemon(true);
			acceptor.start();
			try (S3Storage stalled = mount("stalled", URI.create("http://127.0.0.1:" + silent.getLocalPort()), 4,
					Duration.ofMillis(500), 1)) {
				long start = System.nanoTime();
				assertThatThrownBy(() -> stalled.read(path("/any"), ByteRange.all()).blockLast(TIMEOUT))
					.isInstanceOf(BackendUnavailableException.class);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
				assertThat(accepted).isNotEmpty();
			}
		}
		finally {
			for (Socket socket : accepted) {
				socket.close();
			}
		}
	}

	private S3Storage mount(String name, URI endpoint, int maxConnections, Duration readTimeout, int maxAttempts) {
		S3StorageProperties properties = properties(endpoint, "us-east-1", maxConnections, readTimeout, maxAttempts);
		return S3StorageProvider.create(name, properties, S3Storage.Limits.of(properties));
	}

	private S3StorageProperties properties(URI endpoint, String region, int maxConnections, Duration readTimeout,
			int maxAttempts) {
		return new S3StorageProperties(S3TestMounts.BUCKET, this.prefix, endpoint.toString(), region, true,
				S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Duration.ofSeconds(5), readTimeout,
				maxConnections, maxAttempts, S3TestMounts.PART_SIZE, 4, 1000, Duration.ZERO);
	}

	private static Flux<DataBuffer> content(String text) {
		return dev.wharf.core.storage.StorageTestSupport.content(text);
	}

}
