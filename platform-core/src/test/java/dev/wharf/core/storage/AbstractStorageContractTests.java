package dev.wharf.core.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract every {@link Storage} backend must pass: every operation with its errors,
 * range reads at the edges, streaming without buffering whole files, concurrent writers,
 * cancelled and failed uploads, and path attacks. A backend's test extends this class and
 * says how to make a fresh, empty storage; checks that need a capability the backend
 * lacks are skipped by assumption.
 *
 * <p>
 * Published in platform-core's test-jar.
 */
public abstract class AbstractStorageContractTests {

	/** A fresh folder for each test, for backends that need one. */
	@TempDir
	protected Path tempDir;

	protected Storage storage;

	protected TrackedBuffers buffers;

	/**
	 * Makes an empty storage. Called before each test.
	 * @param tempDir a fresh folder the backend may use
	 * @return the storage
	 */
	protected abstract Storage createStorage(Path tempDir) throws Exception;

	/** Size of the "large file" test: big enough that buffering it whole would show. */
	protected long largeFileSize() {
		return 64L * 1024 * 1024;
	}

	/**
	 * Makes a link named {@code name} in the storage's root that points out of it, at a
	 * file holding {@code secret}, if the backend can hold links; returns {@code false}
	 * if it cannot.
	 */
	protected boolean createLinkOutOfRoot(String name, String secret) throws Exception {
		return false;
	}

	/**
	 * Makes a link at {@code link}, a path in the storage whose folder exists, leading to
	 * {@code target}, a path relative to that folder such as {@code ..}, if the backend
	 * can hold links; returns {@code false} if it cannot.
	 */
	protected boolean createLink(String link, String target) throws Exception {
		return false;
	}

	@BeforeEach
	void createStorage() throws Exception {
		this.buffers = new TrackedBuffers();
		this.storage = createStorage(this.tempDir);
	}

	@AfterEach
	void closeStorage() {
		this.buffers.releaseAll();
		if (this.storage != null) {
			this.storage.close();
		}
	}

	protected boolean has(Capability capability) {
		return this.storage.capabilities().contains(capability);
	}

	protected static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

	protected FileEntry write(String path, String text) {
		return this.storage.write(path(path), content(text), WriteOptions.replace()).block(TIMEOUT);
	}

	protected FileEntry write(String path, byte[] bytes) {
		return this.storage.write(path(path), content(bytes), WriteOptions.replace()).block(TIMEOUT);
	}

	protected String read(String path) {
		return text(this.storage.read(path(path), ByteRange.all()));
	}

	protected FileEntry mkdir(String path) {
		return this.storage.createDirectory(path(path)).block(TIMEOUT);
	}

	protected FileEntry stat(String path) {
		return this.storage.stat(path(path)).block(TIMEOUT);
	}

	protected FileEntry listed(String directory, String name) {
		return this.storage.list(path(directory)).filter(entry -> entry.name().equals(name)).blockFirst(TIMEOUT);
	}

	protected boolean exists(String path) {
		return this.storage.stat(path(path))
			.map(entry -> true)
			.onErrorReturn(NotFoundException.class, false)
			.block(TIMEOUT);
	}

	protected Set<String> names(String directory) {
		return this.storage.list(path(directory)).map(FileEntry::name).collect(Collectors.toSet()).block(TIMEOUT);
	}

	protected static void assertFails(Mono<?> operation, Class<? extends StorageException> expected) {
		assertThatThrownBy(() -> operation.block(TIMEOUT)).isInstanceOf(expected);
	}

	protected static void assertFails(Flux<?> operation, Class<? extends StorageException> expected) {
		assertThatThrownBy(() -> operation.collectList().block(TIMEOUT)).isInstanceOf(expected);
	}

	@Nested
	class StatAndList {

		@Test
		void rootIsAnEmptyFolder() {
			FileEntry root = storage.stat(StoragePath.root()).block(TIMEOUT);
			assertThat(root.type()).isEqualTo(EntryType.DIRECTORY);
			assertThat(root.path().isRoot()).isTrue();
			assumeTrue(has(Capability.LIST));
			assertThat(names("/")).isEmpty();
		}

		@Test
		void statOfAFileGivesItsSizeAndTime() {
			FileEntry written = write("/a.txt", "hello");
			FileEntry entry = storage.stat(path("/a.txt")).block(TIMEOUT);
			assertThat(entry.type()).isEqualTo(EntryType.FILE);
			assertThat(entry.size()).isEqualTo(5);
			assertThat(entry.name()).isEqualTo("a.txt");
			assertThat(entry.lastModified()).isEqualTo(written.lastModified());
			assertThat(entry.lastModified()).isAfter(java.time.Instant.now().minus(Duration.ofMinutes(5)));
		}

		@Test
		void statOfNothingIsNotFound() {
			assertFails(storage.stat(path("/missing")), NotFoundException.class);
			assertFails(storage.stat(path("/missing/deeper")), NotFoundException.class);
		}

		@Test
		void listGivesEveryChildWithItsKind() {
			assumeTrue(has(Capability.LIST));
			write("/f1", "1");
			write("/f2", "22");
			mkdir("/d");
			write("/d/inner", "x");
			List<FileEntry> entries = storage.list(StoragePath.root()).collectList().block(TIMEOUT);
			assertThat(entries).extracting(FileEntry::name).containsExactlyInAnyOrder("f1", "f2", "d");
			assertThat(entries).filteredOn(e -> e.name().equals("f2")).singleElement().satisfies(e -> {
				assertThat(e.type()).isEqualTo(EntryType.FILE);
				assertThat(e.size()).isEqualTo(2);
				assertThat(e.path()).isEqualTo(path("/f2"));
			});
			assertThat(entries).filteredOn(e -> e.name().equals("d"))
				.singleElement()
				.satisfies(e -> assertThat(e.type()).isEqualTo(EntryType.DIRECTORY));
			assertThat(names("/d")).containsExactly("inner");
		}

		@Test
		void keysAreTheSameFromStatAndListAndTellEntriesApart() {
			assumeTrue(has(Capability.LIST) && has(Capability.DIRECTORIES));
			mkdir("/d");
			mkdir("/e");
			write("/d/f", "x");
			FileEntry d = stat("/d");
			// Backends without links give no keys: nothing can lead to an entry along two
			// paths.
			assumeTrue(d.key() != null);
			assertThat(listed("/", "d").key()).isEqualTo(d.key());
			assertThat(listed("/d", "f").key()).isEqualTo(stat("/d/f").key()).isNotNull().isNotEqualTo(d.key());
			assertThat(stat("/e").key()).isNotNull().isNotEqualTo(d.key());
			assertThat(d.key().toString()).as("opaque").isEqualTo("FileKey");
		}

		@Test
		void aLinkToAFolderInsideTheRootHasTheFoldersKey() throws Exception {
			assumeTrue(has(Capability.LIST) && has(Capability.DIRECTORIES));
			mkdir("/real");
			assumeTrue(createLink("/alias", "real"));
			FileEntry real = stat("/real");
			assertThat(real.key()).isNotNull();
			assertThat(stat("/alias").key()).isEqualTo(real.key());
			assertThat(listed("/", "alias").key()).isEqualTo(real.key());
			assertThat(listed("/", "alias").type()).isEqualTo(EntryType.DIRECTORY);
		}

		@Test
		void listOfAFileIsAConflictAndOfNothingNotFound() {
			assumeTrue(has(Capability.LIST));
			write("/file", "x");
			assertFails(storage.list(path("/file")), ConflictException.class);
			assertFails(storage.list(path("/nothing")), NotFoundException.class);
		}

		@Test
		void reservedNamesAreNeverListed() {
			assumeTrue(has(Capability.LIST) && has(Capability.DIRECTORIES));
			storage.createDirectory(StoragePath.reserved("/.wharf")).block(TIMEOUT);
			storage.write(StoragePath.reserved("/.wharf/state"), content("s"), WriteOptions.replace()).block(TIMEOUT);
			write("/visible", "v");
			assertThat(names("/")).containsExactly("visible");
			assertThat(text(storage.read(StoragePath.reserved("/.wharf/state"), ByteRange.all()))).isEqualTo("s");
		}

		@Test
		void unicodeNamesRoundTripInNfc() {
			String decomposed = "cafe\u0301 \u65e5\u672c \ud83d\udce6.txt";
			storage.write(StoragePath.parse("/" + decomposed), content("u"), WriteOptions.replace()).block(TIMEOUT);
			String composed = "caf\u00e9 \u65e5\u672c \ud83d\udce6.txt";
			assertThat(read("/" + composed)).isEqualTo("u");
			if (has(Capability.LIST)) {
				assertThat(names("/")).containsExactly(composed);
			}
		}

	}

	/**
	 * {@link Storage#statAtHand} and {@link Storage#readAtHand} are optional; what a
	 * backend answers there is what {@link Storage#stat} and {@link Storage#read} give.
	 */
	@Nested
	class AtHand {

		@ParameterizedTest(name = "{0} bytes")
		@ValueSource(ints = { 0, 128, 4096, 140_000 })
		void whatIsAnsweredAtHandIsWhatStatAndReadGive(int size) {
			byte[] data = randomBytes(size, 0, size);
			write("/held", data);
			FileEntry stat = stat("/held");
			FileEntry atHand = storage.statAtHand(path("/held"));
			if (atHand != null) {
				assertThat(atHand).isEqualTo(stat);
			}
			HeldFile held = storage.readAtHand(path("/held"), Long.MAX_VALUE);
			if (held != null) {
				assertThat(held.entry()).isEqualTo(stat);
				assertThat(joined(held)).isEqualTo(data);
				assertThat(held.content()).allSatisfy(view -> assertThat(view.isReadOnly()).isTrue());
				// A later write leaves what was handed out as it was.
				write("/held", randomBytes(size + 1, 0, size));
				assertThat(joined(held)).isEqualTo(data);
			}
			assertThat(storage.readAtHand(path("/held"), size - 1L)).as("longer than wanted").isNull();
		}

		@Test
		void nothingButAFileIsAnsweredAtHand() {
			assertThat(storage.statAtHand(path("/missing"))).isNull();
			assertThat(storage.readAtHand(path("/missing"), Long.MAX_VALUE)).isNull();
			assertThat(storage.statAtHand(path("/missing/deeper"))).isNull();
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/folder");
			assertThat(storage.statAtHand(path("/folder"))).isNull();
			assertThat(storage.readAtHand(path("/folder"), Long.MAX_VALUE)).isNull();
			assertThat(storage.statAtHand(StoragePath.root())).isNull();
		}

		private static byte[] joined(HeldFile held) {
			java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
			for (java.nio.ByteBuffer view : held.content()) {
				java.nio.ByteBuffer copy = view.duplicate();
				byte[] part = new byte[copy.remaining()];
				copy.get(part);
				out.writeBytes(part);
			}
			return out.toByteArray();
		}

	}

	@Nested
	class Reading {

		@Test
		void readingAFolderIsAConflict() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/folder");
			assertFails(storage.read(path("/folder"), ByteRange.all()), ConflictException.class);
		}

		@Test
		void readingNothingIsNotFound() {
			assertFails(storage.read(path("/none"), ByteRange.all()), NotFoundException.class);
		}

		@Test
		void emptyFileReadsAsNothing() {
			write("/empty", new byte[0]);
			assertThat(bytes(storage.read(path("/empty"), ByteRange.all()))).isEmpty();
			assertThat(storage.stat(path("/empty")).block(TIMEOUT).size()).isZero();
		}

		@ParameterizedTest(name = "offset {0}, length {1}")
		@org.junit.jupiter.params.provider.CsvSource({ "0,1", "0,-1", "1,10", "99,1", "99,-1", "100,-1", "100,5",
				"150,10", "0,100", "0,1000", "50,50", "50,51", "65535,2", "65536,1", "131071,3" })
		void rangeReadsGiveExactlyTheBytesInside(long offset, long length) {
			int size = (offset > 1000) ? 140_000 : 100;
			byte[] data = randomBytes(7, 0, size);
			write("/ranged", data);
			ByteRange range = (length < 0) ? ByteRange.from(offset) : ByteRange.of(offset, length);
			byte[] got = bytes(storage.read(path("/ranged"), range));
			int from = (int) Math.min(offset, size);
			int to = (int) ((length < 0) ? size : Math.min(size, offset + length));
			assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, from, Math.max(from, to)));
			assertThat(got.length).isEqualTo((int) range.lengthIn(size));
		}

		@Test
		void readsAreLazyAndRespectDemand() {
			long size = 8L * 1024 * 1024;
			storage.write(path("/lazy"), random(3, size, 64 * 1024), WriteOptions.replace()).block(TIMEOUT);
			StepVerifier.create(storage.read(path("/lazy"), ByteRange.all()), 0)
				.expectSubscription()
				.expectNoEvent(Duration.ofMillis(100))
				.thenRequest(1)
				.assertNext(org.springframework.core.io.buffer.DataBufferUtils::release)
				.expectNoEvent(Duration.ofMillis(100))
				.thenCancel()
				.verify(TIMEOUT);
		}

	}

	@Nested
	class Writing {

		@Test
		void replaceOverwritesAndCreateNewRefusesAnExistingFile() {
			write("/w", "first");
			write("/w", "second");
			assertThat(read("/w")).isEqualTo("second");
			assertFails(storage.write(path("/w"), content("third"), WriteOptions.createNew()),
					AlreadyExistsException.class);
			assertThat(read("/w")).isEqualTo("second");
			storage.write(path("/fresh"), content("new"), WriteOptions.createNew()).block(TIMEOUT);
			assertThat(read("/fresh")).isEqualTo("new");
		}

		@Test
		void writingIntoAMissingFolderIsNotFound() {
			assumeTrue(has(Capability.DIRECTORIES));
			assertFails(storage.write(path("/no/such/file"), content("x"), WriteOptions.replace()),
					NotFoundException.class);
			assertThat(exists("/no")).isFalse();
		}

		@Test
		void writingOverAFolderIsAConflict() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/dir");
			assertFails(storage.write(path("/dir"), content("x"), WriteOptions.replace()), ConflictException.class);
			assertThat(storage.stat(path("/dir")).block(TIMEOUT).type()).isEqualTo(EntryType.DIRECTORY);
		}

		@Test
		void writingBelowAFileIsAConflict() {
			assumeTrue(has(Capability.DIRECTORIES));
			write("/plain", "x");
			assertFails(storage.write(path("/plain/child"), content("y"), WriteOptions.replace()),
					ConflictException.class);
		}

		@Test
		void writeReturnsTheNewEntry() {
			FileEntry entry = storage.write(path("/e"), content("12345"), WriteOptions.replace()).block(TIMEOUT);
			assertThat(entry.path()).isEqualTo(path("/e"));
			assertThat(entry.type()).isEqualTo(EntryType.FILE);
			assertThat(entry.size()).isEqualTo(5);
		}

		@Test
		void appendAddsToTheEndAndCreatesMissingFiles() {
			assumeTrue(has(Capability.APPEND));
			storage.write(path("/log"), content("a"), WriteOptions.append()).block(TIMEOUT);
			storage.write(path("/log"), content("bc"), WriteOptions.append()).block(TIMEOUT);
			FileEntry entry = storage.write(path("/log"), content("d"), WriteOptions.append()).block(TIMEOUT);
			assertThat(read("/log")).isEqualTo("abcd");
			assertThat(entry.size()).isEqualTo(4);
		}

		@Test
		void anAnnouncedLengthIsEnforcedAndAMismatchKeepsNothing() {
			write("/kept", "original");
			assertFails(storage.write(path("/kept"), content("short"), WriteOptions.replace().withExpectedLength(10)),
					InvalidContentException.class);
			assertFails(storage.write(path("/kept"), content("much too long"),
					WriteOptions.replace().withExpectedLength(3)), InvalidContentException.class);
			assertThat(read("/kept")).isEqualTo("original");
			assertFails(storage.write(path("/new"), content("abc"), WriteOptions.createNew().withExpectedLength(4)),
					InvalidContentException.class);
			assertThat(exists("/new")).isFalse();
			storage.write(path("/exact"), content("abc"), WriteOptions.createNew().withExpectedLength(3))
				.block(TIMEOUT);
			assertThat(read("/exact")).isEqualTo("abc");
		}

		@Test
		void writeReleasesEveryBuffer() {
			storage.write(path("/released"), random(1, 1_000_000, 8192, buffers), WriteOptions.replace())
				.block(TIMEOUT);
			assertThat(buffers.unreleased()).isZero();
			assertFails(storage.write(path("/released"), random(1, 100_000, 8192, buffers), WriteOptions.createNew()),
					AlreadyExistsException.class);
			assertThat(buffers.unreleased()).isZero();
		}

		@Test
		void writeReleasesEachBufferExactlyOnce() {
			// Like a server's request body: the buffer's producer keeps its own reference
			// and drops it later.
			List<NettyDataBuffer> sent = new ArrayList<>();
			Flux<DataBuffer> content = random(3, 300_000, 8192, buffers).doOnNext(buffer -> {
				NettyDataBuffer netty = (NettyDataBuffer) buffer;
				netty.retain();
				sent.add(netty);
			});
			storage.write(path("/once"), content, WriteOptions.replace()).block(TIMEOUT);
			assertThat(sent).isNotEmpty()
				.allSatisfy(buffer -> assertThat(buffer.getNativeBuffer().refCnt()).isEqualTo(1));
			sent.forEach(NettyDataBuffer::release);
		}

		@Test
		void largeFilesAreStreamedNotBuffered() {
			long size = largeFileSize();
			int chunk = 64 * 1024;
			FileEntry entry = storage
				.write(path("/large.bin"), random(42, size, chunk, buffers), WriteOptions.replace())
				.block(TIMEOUT);
			assertThat(entry.size()).isEqualTo(size);
			assertThat(buffers.unreleased()).isZero();
			// A writer that buffered the file would hold all of its chunks at once.
			assertThat(buffers.peakUnreleased()).isLessThanOrEqualTo(64);
			assertThat(sha256(storage.read(path("/large.bin"), ByteRange.all())).block(TIMEOUT))
				.isEqualTo(sha256(random(42, size, chunk)).block(TIMEOUT));
		}

		@Test
		void concurrentWritersToOnePathLeaveExactlyOneCompleteVersion() throws Exception {
			int writers = 50;
			int size = 200_000;
			List<String> digests = IntStream.range(0, writers)
				.mapToObj(i -> sha256(random(1000 + i, size, 16 * 1024)).block(TIMEOUT))
				.toList();
			List<Mono<FileEntry>> writes = new ArrayList<>();
			for (int i = 0; i < writers; i++) {
				long seed = 1000 + i;
				writes.add(storage.write(path("/contended.bin"), random(seed, size, 16 * 1024), WriteOptions.replace())
					.subscribeOn(Schedulers.boundedElastic()));
			}
			List<FileEntry> results = Flux.merge(Flux.fromIterable(writes), writers).collectList().block(TIMEOUT);
			assertThat(results).hasSize(writers);
			String digest = sha256(storage.read(path("/contended.bin"), ByteRange.all())).block(TIMEOUT);
			assertThat(digests).contains(digest);
			assertThat(storage.stat(path("/contended.bin")).block(TIMEOUT).size()).isEqualTo(size);
			if (has(Capability.LIST)) {
				assertThat(names("/")).containsExactly("contended.bin");
			}
		}

		@Test
		void concurrentCreateNewLetsExactlyOneWriterWin() {
			int writers = 20;
			List<Mono<String>> attempts = IntStream.range(0, writers)
				.mapToObj(i -> storage.write(path("/once"), content("writer-" + i), WriteOptions.createNew())
					.subscribeOn(Schedulers.boundedElastic())
					.map(entry -> "writer-" + i)
					.onErrorResume(AlreadyExistsException.class, e -> Mono.empty()))
				.toList();
			List<String> winners = Flux.merge(attempts).collectList().block(TIMEOUT);
			assertThat(winners).hasSize(1);
			assertThat(read("/once")).isEqualTo(winners.get(0));
		}

		@Test
		void concatenateWritesTheFilesOneAfterAnotherAndKeepsThem() {
			write("/p1", "abc");
			write("/p2", "");
			write("/p3", "defg");
			List<StoragePath> parts = List.of(path("/p1"), path("/p2"), path("/p3"));
			FileEntry joined = storage
				.concatenate(parts, path("/joined"), WriteOptions.createNew().withExpectedLength(7))
				.block(TIMEOUT);
			assertThat(joined.size()).isEqualTo(7);
			assertThat(read("/joined")).isEqualTo("abcdefg");
			assertThat(read("/p1") + read("/p2") + read("/p3")).isEqualTo("abcdefg");
			assertFails(storage.concatenate(parts, path("/joined"), WriteOptions.createNew()),
					AlreadyExistsException.class);
			assertFails(storage.concatenate(parts, path("/joined"), WriteOptions.replace().withExpectedLength(8)),
					InvalidContentException.class);
			assertThat(read("/joined")).isEqualTo("abcdefg");
			assertFails(
					storage.concatenate(List.of(path("/p1"), path("/missing")), path("/other"), WriteOptions.replace()),
					NotFoundException.class);
			assertThat(exists("/other")).isFalse();
		}

		@Test
		void aCancelledUploadLeavesNoTrace() throws Exception {
			Sinks.Many<DataBuffer> sink = Sinks.many().unicast().onBackpressureBuffer();
			CountDownLatch firstChunkTaken = new CountDownLatch(1);
			Disposable upload = storage
				.write(path("/cancelled"), sink.asFlux().doOnNext(b -> firstChunkTaken.countDown()),
						WriteOptions.replace())
				.subscribe();
			sink.tryEmitNext(buffers.wrap("partial content".getBytes(StandardCharsets.UTF_8)));
			assertThat(firstChunkTaken.await(10, TimeUnit.SECONDS)).isTrue();
			upload.dispose();
			awaitGone("/cancelled");
			assertThat(exists("/cancelled")).isFalse();
			if (has(Capability.LIST)) {
				assertThat(names("/")).isEmpty();
			}
		}

		@Test
		void aFailedUploadLeavesNoTraceAndKeepsTheOldVersion() {
			write("/keep", "old version");
			Flux<DataBuffer> broken = content("new but ")
				.concatWith(Flux.error(new IllegalStateException("client went away")));
			assertThatThrownBy(() -> storage.write(path("/keep"), broken, WriteOptions.replace()).block(TIMEOUT))
				.hasMessageContaining("client went away");
			assertThat(read("/keep")).isEqualTo("old version");
			assertThatThrownBy(() -> storage.write(path("/fresh"), broken, WriteOptions.replace()).block(TIMEOUT))
				.hasMessageContaining("client went away");
			assertThat(exists("/fresh")).isFalse();
			if (has(Capability.LIST)) {
				assertThat(names("/")).containsExactly("keep");
			}
		}

		@Test
		void aFailedAppendKeepsWhatWasThere() {
			assumeTrue(has(Capability.APPEND));
			write("/appended", "base");
			Flux<DataBuffer> broken = content("more").concatWith(Flux.error(new IllegalStateException("cut")));
			assertThatThrownBy(() -> storage.write(path("/appended"), broken, WriteOptions.append()).block(TIMEOUT))
				.hasMessageContaining("cut");
			assertThat(read("/appended")).isEqualTo("base");
		}

		private void awaitGone(String path) {
			// Cancellation clean-up runs asynchronously on the backend's own threads.
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> !exists(path));
		}

	}

	@Nested
	class Deleting {

		@Test
		void deletesFilesAndEmptyFolders() {
			write("/gone", "x");
			storage.delete(path("/gone"), false).block(TIMEOUT);
			assertThat(exists("/gone")).isFalse();
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/empty");
			storage.delete(path("/empty"), false).block(TIMEOUT);
			assertThat(exists("/empty")).isFalse();
		}

		@Test
		void aFolderWithContentNeedsRecursive() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/tree");
			mkdir("/tree/sub");
			write("/tree/sub/leaf", "x");
			assertFails(storage.delete(path("/tree"), false), ConflictException.class);
			assertThat(read("/tree/sub/leaf")).isEqualTo("x");
			storage.delete(path("/tree"), true).block(TIMEOUT);
			assertThat(exists("/tree")).isFalse();
		}

		@Test
		void deletingNothingIsNotFoundAndTheRootIsRefused() {
			assertFails(storage.delete(path("/nothing"), true), NotFoundException.class);
			assertFails(storage.delete(StoragePath.root(), true), AccessDeniedException.class);
		}

	}

	@Nested
	class Folders {

		@BeforeEach
		void needsFolders() {
			assumeTrue(has(Capability.DIRECTORIES));
		}

		@Test
		void createsOneFolder() {
			FileEntry entry = mkdir("/new");
			assertThat(entry.type()).isEqualTo(EntryType.DIRECTORY);
			assertThat(storage.stat(path("/new")).block(TIMEOUT).type()).isEqualTo(EntryType.DIRECTORY);
		}

		@Test
		void refusesExistingPathsAndMissingParents() {
			mkdir("/there");
			write("/file", "x");
			assertFails(storage.createDirectory(path("/there")), AlreadyExistsException.class);
			assertFails(storage.createDirectory(path("/file")), AlreadyExistsException.class);
			assertFails(storage.createDirectory(path("/missing/child")), NotFoundException.class);
			assertFails(storage.createDirectory(StoragePath.root()), AlreadyExistsException.class);
		}

		@Test
		void createDirectoriesMakesEveryMissingLevelAndIsIdempotent() {
			storage.createDirectories(path("/a/b/c")).block(TIMEOUT);
			storage.createDirectories(path("/a/b/c")).block(TIMEOUT);
			assertThat(storage.stat(path("/a/b/c")).block(TIMEOUT).type()).isEqualTo(EntryType.DIRECTORY);
			write("/a/file", "x");
			assertFails(storage.createDirectories(path("/a/file/d")), ConflictException.class);
		}

	}

	@Nested
	class Moving {

		@BeforeEach
		void needsMove() {
			assumeTrue(has(Capability.MOVE));
		}

		@Test
		void renamesAFile() {
			write("/old", "content");
			FileEntry moved = storage.move(path("/old"), path("/new"), false).block(TIMEOUT);
			assertThat(moved.path()).isEqualTo(path("/new"));
			assertThat(read("/new")).isEqualTo("content");
			assertThat(exists("/old")).isFalse();
		}

		@Test
		void movesAFolderWithItsContent() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/src");
			mkdir("/src/sub");
			write("/src/sub/f", "deep");
			mkdir("/dst");
			storage.move(path("/src"), path("/dst/moved"), false).block(TIMEOUT);
			assertThat(read("/dst/moved/sub/f")).isEqualTo("deep");
			assertThat(exists("/src")).isFalse();
		}

		@Test
		void replacesOnlyWhenAsked() {
			write("/a", "A");
			write("/b", "B");
			assertFails(storage.move(path("/a"), path("/b"), false), AlreadyExistsException.class);
			assertThat(read("/b")).isEqualTo("B");
			storage.move(path("/a"), path("/b"), true).block(TIMEOUT);
			assertThat(read("/b")).isEqualTo("A");
			assertThat(exists("/a")).isFalse();
		}

		@Test
		void neverReplacesAFolder() {
			assumeTrue(has(Capability.DIRECTORIES));
			write("/f", "x");
			mkdir("/d");
			assertFails(storage.move(path("/f"), path("/d"), true), AlreadyExistsException.class);
			assertThat(read("/f")).isEqualTo("x");
		}

		@Test
		void refusesMovingIntoItselfTheRootOrNothing() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/self");
			assertFails(storage.move(path("/self"), path("/self/inside"), false), ConflictException.class);
			assertFails(storage.move(StoragePath.root(), path("/elsewhere"), false), AccessDeniedException.class);
			assertFails(storage.move(path("/absent"), path("/x"), false), NotFoundException.class);
			assertFails(storage.move(path("/self"), path("/no/parent"), false), NotFoundException.class);
			assertThat(exists("/self")).isTrue();
		}

	}

	@Nested
	class Copying {

		@Test
		void copiesAFileIndependently() {
			write("/orig", "one");
			FileEntry copy = storage.copy(path("/orig"), path("/copy"), false).block(TIMEOUT);
			assertThat(copy.size()).isEqualTo(3);
			write("/orig", "changed");
			assertThat(read("/copy")).isEqualTo("one");
		}

		@Test
		void copiesAFolderRecursively() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/tree");
			mkdir("/tree/sub");
			write("/tree/a", "A");
			write("/tree/sub/b", "B");
			storage.copy(path("/tree"), path("/copy"), false).block(TIMEOUT);
			assertThat(read("/copy/a")).isEqualTo("A");
			assertThat(read("/copy/sub/b")).isEqualTo("B");
			assertThat(read("/tree/sub/b")).isEqualTo("B");
		}

		@Test
		void refusesExistingTargetsUnlessReplacingAFile() {
			write("/x", "X");
			write("/y", "Y");
			assertFails(storage.copy(path("/x"), path("/y"), false), AlreadyExistsException.class);
			storage.copy(path("/x"), path("/y"), true).block(TIMEOUT);
			assertThat(read("/y")).isEqualTo("X");
			assertFails(storage.copy(path("/missing"), path("/z"), false), NotFoundException.class);
		}

		@Test
		void refusesCopyingIntoItself() {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/loop");
			assertFails(storage.copy(path("/loop"), path("/loop/again"), false), ConflictException.class);
		}

		@Test
		void linkLoopsAreLeftOutOfACopyAndNamedOnceTheRestIsCopied() throws Exception {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/tree");
			mkdir("/tree/sub");
			write("/tree/a", "A");
			write("/tree/sub/b", "B");
			assumeTrue(createLink("/tree/self", ".") && createLink("/tree/sub/up", ".."));
			assertThatThrownBy(() -> storage.copy(path("/tree"), path("/copy"), false).block(TIMEOUT))
				.isInstanceOf(ConflictException.class)
				.hasMessageContaining("/tree/self leads back to /tree")
				.hasMessageContaining("/tree/sub/up leads back to /tree");
			assertThat(allNames(path("/copy"))).containsExactlyInAnyOrder("/copy/a", "/copy/sub", "/copy/sub/b");
			assertThat(read("/copy/sub/b")).isEqualTo("B");
		}

		@Test
		void aCopyThatALinkLeadsIntoItsSourceLeavesItselfOut() throws Exception {
			assumeTrue(has(Capability.DIRECTORIES));
			mkdir("/tree");
			write("/tree/a", "A");
			assumeTrue(createLink("/alias", "tree"));
			// The target is in the source through the link: the copy's own folder turns
			// up in the source's listing.
			assertThatThrownBy(() -> storage.copy(path("/tree"), path("/alias/copy"), false).block(TIMEOUT))
				.isInstanceOf(ConflictException.class)
				.hasMessageContaining("/tree/copy is the copy being made");
			assertThat(allNames(path("/tree"))).containsExactlyInAnyOrder("/tree/a", "/tree/copy", "/tree/copy/a");
		}

	}

	@Nested
	class ModificationTimes {

		/** Whole seconds, which every backend keeps (SFTP has no finer times). */
		private static final Instant TIME = Instant.parse("2001-02-03T04:05:06Z");

		@Test
		void aFileKeepsTheTimeItIsGivenAndItsContent() {
			assumeTrue(has(Capability.MODIFICATION_TIME));
			write("/dated.txt", "dated");
			FileEntry changed = storage.setLastModified(path("/dated.txt"), TIME).block(TIMEOUT);
			assertThat(changed.lastModified()).isEqualTo(TIME);
			assertThat(changed.size()).isEqualTo(5);
			assertThat(storage.stat(path("/dated.txt")).block(TIMEOUT).lastModified()).isEqualTo(TIME);
			assertThat(read("/dated.txt")).isEqualTo("dated");
			if (has(Capability.LIST)) {
				assertThat(storage.list(StoragePath.root()).collectList().block(TIMEOUT)).singleElement()
					.satisfies(entry -> assertThat(entry.lastModified()).isEqualTo(TIME));
			}
			Instant later = TIME.plusSeconds(86_400);
			storage.setLastModified(path("/dated.txt"), later).block(TIMEOUT);
			assertThat(storage.stat(path("/dated.txt")).block(TIMEOUT).lastModified()).isEqualTo(later);
		}

		@Test
		void aFolderKeepsTheTimeItIsGiven() {
			assumeTrue(has(Capability.MODIFICATION_TIME) && has(Capability.DIRECTORIES));
			mkdir("/dated");
			write("/dated/inside.txt", "inside");
			assertThat(storage.setLastModified(path("/dated"), TIME).block(TIMEOUT).lastModified()).isEqualTo(TIME);
			assertThat(storage.stat(path("/dated")).block(TIMEOUT).lastModified()).isEqualTo(TIME);
			assertThat(names("/dated")).containsExactly("inside.txt");
		}

		@Test
		void settingTheTimeOfNothingIsNotFoundAndCreatesNothing() {
			assumeTrue(has(Capability.MODIFICATION_TIME));
			assertFails(storage.setLastModified(path("/missing.txt"), TIME), NotFoundException.class);
			assertThat(exists("/missing.txt")).isFalse();
		}

		@Test
		void withoutTheCapabilityTheTimeIsUnsupportedAndUnchanged() {
			assumeFalse(has(Capability.MODIFICATION_TIME));
			Instant written = write("/dated.txt", "dated").lastModified();
			assertFails(storage.setLastModified(path("/dated.txt"), TIME), UnsupportedCapabilityException.class);
			assertThat(storage.stat(path("/dated.txt")).block(TIMEOUT).lastModified()).isEqualTo(written);
		}

	}

	@Nested
	class PathAttacks {

		/**
		 * Raw inputs an attacker sends; each must be refused by the parser, before any
		 * backend call.
		 */
		@ParameterizedTest
		@ValueSource(strings = { "../secret", "/../secret", "a/../../secret", "%2e%2e/secret", "%2e%2e%2fsecret",
				"..%2fsecret", "..%5csecret", "..\\secret", "%00", "a%00b", "%c0%ae%c0%ae/secret",
				"%e0%80%ae%e0%80%ae/secret", "%ff", "a%0ab", "a%0db", "//etc/passwd", "a//b", ".", "./a", "%2e",
				"%252e%252e%252f" })
		void rawUriPathsAreRefused(String raw) {
			assertThatThrownBy(() -> {
				StoragePath parsed = StoragePath.parseUriPath(raw);
				// Double-encoded input decodes once to a harmless literal name; it must
				// still not escape.
				storage.stat(parsed).block(TIMEOUT);
			}).isInstanceOfAny(InvalidStoragePathException.class, NotFoundException.class);
		}

		@Test
		void rawBytesWithNulControlAndOverlongUtf8AreRefused() {
			for (byte[] raw : List.of(new byte[] { 'a', 0, 'b' }, new byte[] { 'a', 1, 'b' }, new byte[] { 'a', 0x7f },
					new byte[] { (byte) 0xc0, (byte) 0xae, (byte) 0xc0, (byte) 0xae, '/', 's' },
					new byte[] { (byte) 0xe0, (byte) 0x80, (byte) 0xae, '/', 's' }, new byte[] { '.', '.', '/', 's' },
					new byte[] { '.', '.', '\\', 's' }, new byte[] { (byte) 0xff })) {
				assertThatThrownBy(() -> StoragePath.parseUtf8(raw)).isInstanceOf(InvalidStoragePathException.class);
			}
		}

		@Test
		void absolutePathsStayInsideTheMount() {
			write("/etc-inside", "inside");
			assertFails(storage.stat(StoragePath.parse("/etc/passwd")), NotFoundException.class);
			assertFails(storage.read(StoragePath.parse("/etc/passwd"), ByteRange.all()), NotFoundException.class);
		}

		@Test
		void aLinkOutOfTheRootIsNeverFollowed() throws Exception {
			String secret = "canary-" + System.nanoTime();
			assumeTrue(createLinkOutOfRoot("escape", secret));
			assertFails(storage.read(path("/escape"), ByteRange.all()), AccessDeniedException.class);
			assertFails(storage.stat(path("/escape")), AccessDeniedException.class);
			assertFails(storage.write(path("/escape"), content("overwrite"), WriteOptions.replace()),
					AccessDeniedException.class);
			if (has(Capability.MODIFICATION_TIME)) {
				assertFails(storage.setLastModified(path("/escape"), Instant.EPOCH), AccessDeniedException.class);
			}
			if (has(Capability.LIST)) {
				assertThat(storage.list(StoragePath.root()).collectList().block(TIMEOUT))
					.allSatisfy(entry -> assertThat(entry.type()).isEqualTo(EntryType.OTHER));
			}
		}

	}

	/**
	 * Every name under a folder, recursively, for checks that nothing was left behind.
	 */
	protected Set<String> allNames(StoragePath folder) {
		Set<String> names = new HashSet<>();
		storage.list(folder).toIterable().forEach(entry -> {
			names.add(entry.path().toString());
			if (entry.isDirectory()) {
				names.addAll(allNames(entry.path()));
			}
		});
		return names;
	}

}
