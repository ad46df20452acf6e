package dev.wharf.core.storage.memcached;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.UnsupportedCapabilityException;
import dev.wharf.core.storage.WriteOptions;
import net.spy.memcached.CachedData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.util.unit.DataSize;
import reactor.test.StepVerifier;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What the {@code memcached} backend does beyond the contract, against real memcached
 * processes: hashing over two servers, a server killed and restarted, items evicted
 * behind its back, foreign items that a careless client would deserialise, the size
 * limit, and where callbacks run.
 */
class MemcachedStorageTests {

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	private MemcachedProcess memcached() throws Exception {
		MemcachedProcess memcached = MemcachedProcess.start(64);
		this.closeables.add(memcached);
		return memcached;
	}

	private MemcachedStorage storage(MemcachedStorageProperties properties) {
		MemcachedStorage storage = new MemcachedStorage("test", properties);
		this.closeables.add(storage);
		return storage;
	}

	private static MemcachedStorageProperties properties(MemcachedProcess... servers) {
		return properties(Duration.ofSeconds(5), servers);
	}

	private static MemcachedStorageProperties properties(Duration operationTimeout, MemcachedProcess... servers) {
		List<String> addresses = new ArrayList<>();
		for (MemcachedProcess server : servers) {
			addresses.add(server.address());
		}
		return new MemcachedStorageProperties(addresses, null, DataSize.ofKilobytes(64), DataSize.ofMegabytes(1),
				Duration.ZERO, operationTimeout, Duration.ofSeconds(10), Duration.ofSeconds(1));
	}

	private static void put(MemcachedStorage storage, String path, String text) {
		storage.write(StoragePath.parse(path), content(text), WriteOptions.replace()).block(TIMEOUT);
	}

	/**
	 * Stores {@code /key-0} to {@code /key-39}, holding {@code value-0} to
	 * {@code value-39}.
	 */
	private static MemcachedStorage storeKeys(MemcachedStorage storage) {
		for (int i = 0; i < 40; i++) {
			put(storage, "/key-" + i, "value-" + i);
		}
		return storage;
	}

	private static String get(MemcachedStorage storage, String path) {
		return text(storage.read(StoragePath.parse(path), ByteRange.all()));
	}

	@Test
	void spreadsKeysOverEveryServerAndReadsThemBack() throws Exception {
		MemcachedProcess first = memcached();
		MemcachedProcess second = memcached();
		MemcachedStorage storage = storeKeys(storage(properties(first, second)));
		assertThat(first.items()).isPositive();
		assertThat(second.items()).isPositive();
		assertThat(first.items() + second.items()).isEqualTo(40);
		for (int i = 0; i < 40; i++) {
			assertThat(get(storage, "/key-" + i)).isEqualTo("value-" + i);
		}
	}

	@Test
	void aKilledServerFailsFastAndIsUsedAgainWhenItReturns() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(Duration.ofSeconds(30), memcached));
		put(storage, "/before", "x");
		storage.checkHealth().block(TIMEOUT);

		memcached.kill();
		awaitFailure(storage);
		long started = System.nanoTime();
		assertThatThrownBy(() -> storage.stat(StoragePath.parse("/before")).block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> put(storage, "/during", "y")).isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> storage.checkHealth().block(TIMEOUT)).isInstanceOf(BackendUnavailableException.class)
			.hasMessageContaining(memcached.address());
		// Refused at once, not after the operation time-out (30 s) of each of the three
		// calls.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));

		memcached.restart();
		awaitRecovery(storage);
		put(storage, "/after", "z");
		assertThat(get(storage, "/after")).isEqualTo("z");
		// The restarted memcached is empty.
		assertThatThrownBy(() -> storage.stat(StoragePath.parse("/before")).block(TIMEOUT))
			.isInstanceOf(NotFoundException.class);
	}

	@Test
	void aServerKilledDuringAReadFailsTheReadInsteadOfEndingItShort() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		StoragePath path = StoragePath.parse("/large");
		storage.write(path, random(6, 1024 * 1024, 8192), WriteOptions.replace()).block(TIMEOUT);
		StepVerifier.create(storage.read(path, ByteRange.all()), 1)
			.assertNext(DataBufferUtils::release)
			.then(memcached::kill)
			.thenRequest(Long.MAX_VALUE)
			.thenConsumeWhile(buffer -> DataBufferUtils.release(buffer) || true)
			.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(BackendUnavailableException.class))
			.verify(TIMEOUT);
	}

	@Test
	void withOneOfTwoServersDownOnlyItsKeysFail() throws Exception {
		MemcachedProcess first = memcached();
		MemcachedProcess second = memcached();
		MemcachedStorage storage = storeKeys(storage(properties(first, second)));
		long onSecond = second.items();
		second.kill();
		awaitFailure(storage);
		int served = 0;
		int unavailable = 0;
		for (int i = 0; i < 40; i++) {
			try {
				assertThat(get(storage, "/key-" + i)).isEqualTo("value-" + i);
				served++;
			}
			catch (BackendUnavailableException ex) {
				unavailable++;
			}
		}
		assertThat(served).isEqualTo(first.items());
		assertThat(unavailable).isEqualTo(onSecond);
	}

	@Test
	void aFirstChunkEvictedMeansNotFoundAndALaterOneFailsTheRead() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		MemcachedKeys keys = new MemcachedKeys("wharf:test:");
		int size = 300_000;
		for (String name : List.of("/first", "/later")) {
			storage.write(StoragePath.parse(name), random(5, size, 8192), WriteOptions.replace()).block(TIMEOUT);
		}
		assertThat(memcached.items()).isEqualTo(2 * (1 + 5));

		UUID firstWrite = writeId(memcached, keys, "/first");
		assertThat(memcached.delete(keys.chunk(keys.head(StoragePath.parse("/first")), firstWrite, 0))).isTrue();
		assertThatThrownBy(() -> bytes(storage.read(StoragePath.parse("/first"), ByteRange.all())))
			.isInstanceOf(NotFoundException.class);

		UUID laterWrite = writeId(memcached, keys, "/later");
		assertThat(memcached.delete(keys.chunk(keys.head(StoragePath.parse("/later")), laterWrite, 3))).isTrue();
		AtomicReference<Long> received = new AtomicReference<>(0L);
		assertThatThrownBy(() -> storage.read(StoragePath.parse("/later"), ByteRange.all()).doOnNext(buffer -> {
			received.set(received.get() + buffer.readableByteCount());
			DataBufferUtils.release(buffer);
		}).blockLast(TIMEOUT)).isInstanceOf(StorageIoException.class).hasMessageContaining("evicted");
		assertThat(received.get()).isLessThan(size);
	}

	private static UUID writeId(MemcachedProcess memcached, MemcachedKeys keys, String path) throws Exception {
		MemcachedStorageProperties properties = properties(memcached);
		try (MemcachedOperations operations = MemcachedOperations.connect("peek",
				MemcachedServers.resolve(properties.servers()), properties)) {
			byte[] item = operations.get(keys.head(StoragePath.parse(path))).block(TIMEOUT);
			return EntryHead.decode(item).writeId();
		}
	}

	@Test
	void neverDeserialisesOrInflatesWhatOthersStored() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		String key = new MemcachedKeys("wharf:test:").head(StoragePath.parse("/planted"));
		ByteArrayOutputStream serialised = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(serialised)) {
			out.writeObject(new java.util.HashMap<>(java.util.Map.of("gadget", "chain")));
		}
		// Flags 1 = "serialised Java object", 2 = "gzip" for spymemcached's default
		// transcoder.
		for (int flags : new int[] { 1, 2, 3 }) {
			memcached.set(key, flags, serialised.toByteArray());
			assertThatThrownBy(() -> storage.stat(StoragePath.parse("/planted")).block(TIMEOUT))
				.isInstanceOf(NotFoundException.class);
			assertThat(BytesTranscoder.INSTANCE.decode(new CachedData(flags, serialised.toByteArray(), 1 << 20)))
				.isEqualTo(serialised.toByteArray());
		}
	}

	@Test
	void filesOverTheLimitAreRefusedBeforeAnythingIsStored() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		long tooLarge = DataSize.ofMegabytes(1).toBytes() + 1;
		assertThatThrownBy(
				() -> storage.write(StoragePath.parse("/big"), random(1, tooLarge, 8192), WriteOptions.replace())
					.block(TIMEOUT))
			.isInstanceOf(QuotaExceededException.class);
		assertThatThrownBy(() -> storage
			.write(StoragePath.parse("/big"), random(1, tooLarge, 8192),
					WriteOptions.replace().withExpectedLength(tooLarge))
			.block(TIMEOUT)).isInstanceOf(QuotaExceededException.class);
		awaitItems(memcached, 0);
		assertThat(memcached.items()).isZero();
		// Exactly at the limit is fine, and comes back intact.
		long limit = DataSize.ofMegabytes(1).toBytes();
		storage.write(StoragePath.parse("/limit"), random(2, limit, 8192), WriteOptions.replace()).block(TIMEOUT);
		assertThat(sha256(storage.read(StoragePath.parse("/limit"), ByteRange.all())).block(TIMEOUT))
			.isEqualTo(sha256(random(2, limit, 8192)).block(TIMEOUT));
	}

	@Test
	void callbacksRunOnTheMountsOwnThreads() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		put(storage, "/t", "x");
		String thread = storage.stat(StoragePath.parse("/t"))
			.map(entry -> Thread.currentThread().getName())
			.block(TIMEOUT);
		assertThat(thread).startsWith("wharf-memcached-test-");
	}

	@Test
	void foldersListingAndMovesAreUnsupported() throws Exception {
		MemcachedProcess memcached = memcached();
		MemcachedStorage storage = storage(properties(memcached));
		assertThat(storage.capabilities()).containsExactlyInAnyOrder(Capability.RANGE_READ, Capability.ATOMIC_WRITE);
		assertThatThrownBy(() -> storage.list(StoragePath.root()).blockLast(TIMEOUT))
			.isInstanceOf(UnsupportedCapabilityException.class);
		assertThatThrownBy(() -> storage.createDirectory(StoragePath.parse("/d")).block(TIMEOUT))
			.isInstanceOf(UnsupportedCapabilityException.class);
		put(storage, "/a", "x");
		assertThatThrownBy(() -> storage.move(StoragePath.parse("/a"), StoragePath.parse("/b"), false).block(TIMEOUT))
			.isInstanceOf(UnsupportedCapabilityException.class);
		assertThatThrownBy(
				() -> storage.write(StoragePath.parse("/a"), content("y"), WriteOptions.append()).block(TIMEOUT))
			.isInstanceOf(UnsupportedCapabilityException.class);
	}

	@Test
	void startsWhileTheServerIsDownAndConnectsWhenItComesUp() throws Exception {
		MemcachedProcess memcached = memcached();
		memcached.kill();
		MemcachedStorageProperties quick = new MemcachedStorageProperties(List.of(memcached.address()), null,
				DataSize.ofKilobytes(64), DataSize.ofMegabytes(1), Duration.ZERO, Duration.ofSeconds(2),
				Duration.ofMillis(200), Duration.ofSeconds(1));
		MemcachedStorage storage = storage(quick);
		assertThatThrownBy(() -> storage.checkHealth().block(TIMEOUT)).isInstanceOf(BackendUnavailableException.class);
		memcached.restart();
		awaitRecovery(storage);
		put(storage, "/late", "ok");
		assertThat(get(storage, "/late")).isEqualTo("ok");
	}

	private static void awaitFailure(MemcachedStorage storage) {
		await("memcached was killed: the storage notices").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> !healthy(storage));
	}

	private static void awaitRecovery(MemcachedStorage storage) {
		await("memcached came back: the storage reconnects").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> healthy(storage));
	}

	private static boolean healthy(MemcachedStorage storage) {
		try {
			storage.checkHealth().block(TIMEOUT);
			return true;
		}
		catch (BackendUnavailableException down) {
			return false;
		}
	}

	private static void awaitItems(MemcachedProcess memcached, long items) {
		// Clean-up of a refused upload's chunks runs in the background.
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> memcached.items() == items);
	}

}
