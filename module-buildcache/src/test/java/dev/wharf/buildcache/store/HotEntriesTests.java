package dev.wharf.buildcache.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.local.LocalStorage;
import dev.wharf.core.testsupport.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@link HotEntries} of a {@link CacheStore} on a local folder: which GETs
 * a copy answers without the storage, and that deleted, replaced and evicted entries stop
 * being served.
 */
class HotEntriesTests {

	private static final StoragePath FOLDER = StoragePath.reserved("/.wharf-buildcache");

	private static final Duration REVALIDATE = Duration.ofSeconds(1);

	@TempDir
	Path temp;

	/** Moved by hand only. */
	private final MutableClock clock = new MutableClock(Instant.now(), Duration.ZERO);

	private CountingStorage storage;

	private CacheStore store;

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
		if (this.storage != null) {
			this.storage.close();
		}
	}

	private CacheStore store(long maxBytes, long copies, Compression compression) throws IOException {
		this.storage = new CountingStorage(new LocalStorage("data", this.temp, false, 4));
		this.store = new CacheStore("data", this.storage,
				new CacheStore.Settings(FOLDER, KeyDigest.NONE, compression, 10 * 1024 * 1024, maxBytes,
						Duration.ofDays(7), new HotEntries.Settings(copies, 64 * 1024, REVALIDATE)),
				new CacheMetrics(new SimpleMeterRegistry(), "data", "local"), this.clock);
		this.store.start().block(TIMEOUT);
		return this.store;
	}

	private static void put(CacheStore store, String key, byte[] bytes) {
		store.put(CacheKey.parse(key), content(bytes), bytes.length).block(TIMEOUT);
	}

	private static byte[] get(CacheStore store, String key) {
		CacheEntry entry = store.get(CacheKey.parse(key), true).block(TIMEOUT);
		return (entry != null) ? bytes(entry.content()) : null;
	}

	/** What a GET on the fast lane gets without waiting, or {@code null}. */
	private static byte[] atHand(CacheStore store, String key) {
		HeldEntry held = store.getAtHand(CacheKey.parse(key), true, 64 * 1024);
		if (held == null) {
			return null;
		}
		ByteBuffer whole = ByteBuffer.allocate((int) held.length());
		held.content().forEach(part -> whole.put(part.duplicate()));
		return whole.array();
	}

	private Path file(String key) {
		return this.temp.resolve(".wharf-buildcache").resolve(key);
	}

	@Test
	void aWrittenEntryIsAnsweredAtHandWithoutTheStorage() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		byte[] entry = randomBytes(1, 0, 4096);
		put(store, "a", entry);
		int calls = this.storage.calls.get();
		assertThat(atHand(store, "a")).isEqualTo(entry);
		assertThat(store.getAtHand(CacheKey.parse("a"), false, 64 * 1024).length()).isEqualTo(4096);
		assertThat(this.storage.calls.get()).as("storage calls").isEqualTo(calls);
	}

	@Test
	void anEntryReadOnceIsAnsweredAtHandAfterwardsDeflatedToo() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.DEFLATE);
		byte[] entry = randomBytes(2, 0, 5000);
		put(store, "b", entry);
		// Written by another replica: this one has no copy until it reads it.
		store.hotEntries().forget(store.pathOf(CacheKey.parse("b")));
		assertThat(atHand(store, "b")).isNull();
		assertThat(get(store, "b")).isEqualTo(entry);
		int calls = this.storage.calls.get();
		assertThat(atHand(store, "b")).isEqualTo(entry);
		assertThat(this.storage.calls.get()).isEqualTo(calls);
	}

	@Test
	void anEntryDeletedBehindTheCachesBackIsNotServedOnceTheCopyIsDue() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		put(store, "c", randomBytes(3, 0, 3000));
		Files.delete(file("c"));
		this.clock.advance(REVALIDATE.plusMillis(1));
		assertThat(atHand(store, "c")).isNull();
		assertThat(get(store, "c")).isNull();
		assertThat(store.hotEntries().size()).isZero();
		assertThat(atHand(store, "c")).isNull();
	}

	@Test
	void anEntryReplacedBehindTheCachesBackIsReadAgainOnceTheCopyIsDue() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		put(store, "d", randomBytes(4, 0, 3000));
		// Another replica's write: a new file renamed over the old one.
		byte[] newer = randomBytes(5, 0, 3000);
		Path other = this.temp.resolve("other");
		Files.write(other, newer);
		Files.move(other, file("d"), StandardCopyOption.REPLACE_EXISTING);
		this.clock.advance(REVALIDATE.plusMillis(1));
		assertThat(atHand(store, "d")).isNull();
		assertThat(get(store, "d")).isEqualTo(newer);
		assertThat(atHand(store, "d")).isEqualTo(newer);
	}

	@Test
	void aCopyStillMatchingTheFileIsServedAgainWithoutAReadOnceChecked() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		byte[] entry = randomBytes(6, 0, 3000);
		put(store, "e", entry);
		this.clock.advance(REVALIDATE.plusMillis(1));
		assertThat(atHand(store, "e")).isNull();
		int reads = this.storage.reads.get();
		assertThat(get(store, "e")).isEqualTo(entry);
		assertThat(this.storage.reads.get()).as("reads").isEqualTo(reads);
		assertThat(atHand(store, "e")).isEqualTo(entry);
	}

	@Test
	void aReplacingPutIsNeverAnsweredWithTheOldBytes() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		byte[] old = randomBytes(7, 0, 3000);
		put(store, "f", old);
		assertThat(atHand(store, "f")).isEqualTo(old);
		byte[] newer = randomBytes(8, 0, 3000);
		put(store, "f", newer);
		assertThat(atHand(store, "f")).isEqualTo(newer);
		assertThat(get(store, "f")).isEqualTo(newer);
	}

	@Test
	void aReadOfTheOldBytesThatEndsAfterAReplacingPutKeepsNoCopy() throws Exception {
		CacheStore store = store(1 << 20, 1 << 20, Compression.NONE);
		byte[] old = randomBytes(9, 0, 3000);
		put(store, "g", old);
		store.hotEntries().forget(store.pathOf(CacheKey.parse("g")));
		// A GET reads the old file, and is held before its bytes arrive.
		CompletableFuture<Void> release = new CompletableFuture<>();
		this.storage.holdReads = release;
		CompletableFuture<byte[]> slow = store.get(CacheKey.parse("g"), true)
			.flatMap(entry -> Mono.fromCallable(() -> bytes(entry.content())))
			.toFuture();
		await().atMost(TIMEOUT).until(() -> this.storage.held.get() == 1);
		this.storage.holdReads = null;
		byte[] newer = randomBytes(10, 0, 3000);
		put(store, "g", newer);
		release.complete(null);
		assertThat(slow.get()).isEqualTo(old);
		assertThat(atHand(store, "g")).isNotEqualTo(old);
		assertThat(get(store, "g")).isEqualTo(newer);
	}

	@Test
	void anEvictedEntryIsNoLongerServed() throws Exception {
		long budget = 2 * (3000 + LruIndex.ENTRY_CHARGE) + 100;
		CacheStore store = store(budget, 1 << 20, Compression.NONE);
		put(store, "h", randomBytes(11, 0, 3000));
		put(store, "i", randomBytes(12, 0, 3000));
		put(store, "j", randomBytes(13, 0, 3000));
		await().atMost(TIMEOUT).until(() -> !Files.exists(file("h")));
		assertThat(atHand(store, "h")).isNull();
		assertThat(get(store, "h")).isNull();
		assertThat(atHand(store, "j")).isNotNull();
	}

	@Test
	void theCopiesStayWithinTheirBudget() throws Exception {
		long budget = 5 * (4096 + HotEntries.ENTRY_CHARGE);
		CacheStore store = store(1 << 30, budget, Compression.NONE);
		for (int i = 0; i < 50; i++) {
			put(store, "k" + i, randomBytes(i, 0, 4096));
			assertThat(store.hotEntries().bytes()).isLessThanOrEqualTo(budget);
		}
		assertThat(store.hotEntries().size()).isBetween(1L, 5L);
		int atHand = 0;
		for (int i = 0; i < 50; i++) {
			atHand += (atHand(store, "k" + i) != null) ? 1 : 0;
		}
		assertThat(atHand).isEqualTo(store.hotEntries().size());
		// Larger than a copy may be: read from the file every time.
		put(store, "large", randomBytes(99, 0, 70_000));
		assertThat(atHand(store, "large")).isNull();
		assertThat(get(store, "large")).hasSize(70_000);
		assertThat(atHand(store, "large")).isNull();
		assertThat(store.hotEntries().bytes()).isLessThanOrEqualTo(budget);
	}

	@Test
	void noCopiesWhenTurnedOff() throws Exception {
		CacheStore store = store(1 << 20, 0, Compression.NONE);
		put(store, "m", randomBytes(14, 0, 100));
		assertThat(get(store, "m")).hasSize(100);
		assertThat(atHand(store, "m")).isNull();
		assertThat(store.hotEntries().size()).isZero();
	}

	@Test
	void concurrentWritesReadsAndEvictionsKeepTheAccountsExact() throws Exception {
		int length = 1000;
		long budget = 20 * (length + HotEntries.ENTRY_CHARGE);
		HotEntries hot = new HotEntries(new HotEntries.Settings(budget, 64 * 1024, REVALIDATE), this.clock);
		FileEntry stored = new FileEntry(FOLDER.resolve("x"), EntryType.FILE, length, Instant.EPOCH);
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				int seed = t;
				done.add(threads.submit(() -> {
					Random random = new Random(seed);
					for (int i = 0; i < 20_000; i++) {
						StoragePath path = FOLDER.resolve("k" + random.nextInt(60));
						switch (random.nextInt(4)) {
							case 0 -> {
								HotEntries.Write write = hot.beginWrite(path, length);
								write.copy(DefaultDataBufferFactory.sharedInstance.wrap(new byte[length]));
								write.stored(stored);
								hot.endWrite(write);
							}
							case 1 -> hot.keep(path, hot.readTicket(path), stored, new byte[length], hot.now());
							case 2 -> hot.forget(path);
							default -> hot.fresh(path);
						}
					}
				}));
			}
			for (Future<?> each : done) {
				each.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		// One more write, on a quiet cache.
		HotEntries.Write last = hot.beginWrite(FOLDER.resolve("last"), length);
		last.copy(DefaultDataBufferFactory.sharedInstance.wrap(new byte[length]));
		last.stored(stored);
		hot.endWrite(last);
		assertThat(hot.bytes()).isEqualTo(hot.size() * (length + HotEntries.ENTRY_CHARGE));
		assertThat(hot.bytes()).isLessThanOrEqualTo(budget);
		assertThat(hot.size()).isPositive();
	}

	/** Counts the calls a store makes, and can hold reads back. */
	private static final class CountingStorage extends ForwardingStorage {

		final AtomicInteger calls = new AtomicInteger();

		final AtomicInteger reads = new AtomicInteger();

		final AtomicInteger held = new AtomicInteger();

		volatile CompletableFuture<Void> holdReads;

		CountingStorage(Storage delegate) {
			super(delegate);
		}

		@Override
		public Mono<FileEntry> stat(StoragePath path) {
			this.calls.incrementAndGet();
			return super.stat(path);
		}

		@Override
		public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
			this.calls.incrementAndGet();
			this.reads.incrementAndGet();
			CompletableFuture<Void> hold = this.holdReads;
			if (hold == null) {
				return super.read(path, range);
			}
			// Read now, handed on once released: the bytes of the file as it is now.
			return super.read(path, range).collectList()
				.doOnNext(read -> this.held.incrementAndGet())
				.flatMapMany(read -> Mono.fromFuture(hold).thenMany(Flux.fromIterable(read)));
		}

	}

}
