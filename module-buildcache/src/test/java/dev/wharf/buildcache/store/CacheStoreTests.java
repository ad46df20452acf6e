package dev.wharf.buildcache.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.local.LocalStorage;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.testsupport.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CacheStore} on real local and memory storages: the index across a
 * restart, eviction leaving no empty folders, deflated entries and digested keys.
 */
class CacheStoreTests {

	private static final StoragePath FOLDER = StoragePath.reserved("/.wharf-buildcache");

	@TempDir
	Path temp;

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	/**
	 * The store's clock: a millisecond further on every reading, and moved by hand where
	 * a test wants uses far apart. A day ahead of the files' times: a restarted index
	 * orders entries by the uses it recorded, not by when the files were written.
	 */
	private final MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofDays(1)), Duration.ofMillis(1));

	private Storage storage;

	@AfterEach
	void close() {
		if (this.storage != null) {
			this.storage.close();
		}
	}

	private Storage local() throws IOException {
		this.storage = new LocalStorage("data", this.temp, false, 4);
		return this.storage;
	}

	private CacheStore store(Storage storage, long maxBytes, Compression compression, KeyDigest digest) {
		CacheStore store = new CacheStore("data", storage,
				new CacheStore.Settings(FOLDER, digest, compression, 10 * 1024 * 1024, maxBytes, Duration.ofDays(7)),
				new CacheMetrics(this.meters, "data", "local"), this.clock);
		store.start().block(TIMEOUT);
		return store;
	}

	private static CacheKey key(String raw) {
		return CacheKey.parse(raw);
	}

	private static void put(CacheStore store, String key, byte[] bytes) {
		store.put(key(key), content(bytes), bytes.length).block(TIMEOUT);
	}

	private static byte[] get(CacheStore store, String key) {
		CacheEntry entry = store.get(key(key), true).block(TIMEOUT);
		return (entry != null) ? bytes(entry.content()) : null;
	}

	private static void awaitGone(CacheStore store, String key) {
		await().atMost(Duration.ofSeconds(20)).until(() -> store.get(key(key), false).block(TIMEOUT) == null);
	}

	@Test
	void theIndexSurvivesARestartWithItsOrder() throws Exception {
		Storage storage = local();
		long budget = 3 * (3000 + LruIndex.ENTRY_CHARGE) + 100;
		CacheStore first = store(storage, budget, Compression.NONE, KeyDigest.NONE);
		for (String key : List.of("a", "b", "c")) {
			put(first, key, randomBytes(1, 0, 3000));
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(get(first, "a")).hasSize(3000);
		first.close();
		assertThat(this.temp.resolve(".wharf-buildcache/.wharf-index")).isRegularFile();

		CacheStore second = store(storage, budget, Compression.NONE, KeyDigest.NONE);
		await().atMost(Duration.ofSeconds(20)).until(() -> second.index().entries() == 3);
		assertThat(second.index().bytes()).isEqualTo(3 * (3000 + LruIndex.ENTRY_CHARGE));
		// Least recently used: b (a was read after c was written).
		put(second, "d", randomBytes(2, 0, 3000));
		awaitGone(second, "b");
		assertThat(get(second, "b")).isNull();
		assertThat(get(second, "a")).hasSize(3000);
		assertThat(get(second, "c")).hasSize(3000);
		assertThat(get(second, "d")).hasSize(3000);
		second.close();
	}

	@Test
	void evictingAMavenEntryRemovesItsEmptyFolder() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 5000 + LruIndex.ENTRY_CHARGE, Compression.NONE, KeyDigest.NONE);
		put(store, "v1.1/org.example/demo/0011/buildinfo.xml", randomBytes(1, 0, 3000));
		this.clock.advance(Duration.ofSeconds(1));
		put(store, "v1.1/org.example/other/0022/buildinfo.xml", randomBytes(2, 0, 3000));
		awaitGone(store, "v1.1/org.example/demo/0011/buildinfo.xml");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> Files.notExists(this.temp.resolve(".wharf-buildcache/v1.1/org.example/demo/0011")));
		assertThat(this.temp.resolve(".wharf-buildcache/v1.1/org.example/other/0022/buildinfo.xml")).isRegularFile();
		store.close();
	}

	@Test
	void aFolderRemovedUnderAWriteIsMadeAgain() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 10_000_000, Compression.NONE, KeyDigest.NONE);
		put(store, "v1.1/g/a/01/first", randomBytes(1, 0, 10));
		// As an eviction of the folder's last entry would, just before the next write
		// into it.
		storage.delete(StoragePath.reserved("/.wharf-buildcache/v1.1/g/a/01"), true).block(TIMEOUT);
		put(store, "v1.1/g/a/01/second", randomBytes(2, 0, 10));
		assertThat(get(store, "v1.1/g/a/01/second")).isEqualTo(randomBytes(2, 0, 10));
		store.close();
	}

	@Test
	void deflatedEntriesComeBackWholeAndTakeLessRoom() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 10_000_000, Compression.DEFLATE, KeyDigest.NONE);
		byte[] text = "build output, build output, build output\n".repeat(5000).getBytes(StandardCharsets.UTF_8);
		put(store, "text", text);
		store.put(key("unannounced"), content(text), WriteOptions.UNKNOWN_LENGTH).block(TIMEOUT);
		byte[] noise = bytes(random(3, 300_000, 8192));
		store.put(key("noise"), random(3, 300_000, 8192), noise.length).block(TIMEOUT);
		assertThat(get(store, "text")).isEqualTo(text);
		assertThat(get(store, "unannounced")).isEqualTo(text);
		assertThat(get(store, "noise")).isEqualTo(noise);
		assertThat(store.get(key("text"), false).block(TIMEOUT).length()).isEqualTo(text.length);
		assertThat(Files.size(this.temp.resolve(".wharf-buildcache/text"))).isLessThan(text.length / 10);
		store.close();
	}

	@Test
	void aPlantedDeflatedEntryCannotInflatePastItsLength() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 10_000_000, Compression.DEFLATE, KeyDigest.NONE);
		byte[] zeros = new byte[5_000_000];
		put(store, "bomb", zeros);
		Path file = this.temp.resolve(".wharf-buildcache/bomb");
		byte[] stored = Files.readAllBytes(file);
		// Claim 10 bytes in the trailer: inflating must stop there, not produce 5 MB.
		stored[stored.length - 12 + 7] = 10;
		for (int i = stored.length - 12; i < stored.length - 12 + 7; i++) {
			stored[i] = 0;
		}
		Files.write(file, stored);
		CacheEntry entry = store.get(key("bomb"), true).block(TIMEOUT);
		assertThat(entry.length()).isEqualTo(10);
		assertThatThrownBy(() -> bytes(entry.content())).isInstanceOf(StorageIoException.class);
		Files.write(file, "not deflate at all".getBytes(StandardCharsets.UTF_8));
		assertThatThrownBy(() -> store.get(key("bomb"), true).block(TIMEOUT)).isInstanceOf(StorageIoException.class);
		store.close();
	}

	@Test
	void digestedKeysAreSpreadOverFolders() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 10_000_000, Compression.NONE, KeyDigest.MD5);
		put(store, "v1.1/org.example/demo/0011/demo.jar", randomBytes(4, 0, 100));
		assertThat(store.pathOf(key("v1.1/org.example/demo/0011/demo.jar")).toString())
			.matches("/\\.wharf-buildcache/[0-9a-f]{2}/[0-9a-f]{32}");
		assertThat(get(store, "v1.1/org.example/demo/0011/demo.jar")).isEqualTo(randomBytes(4, 0, 100));
		try (Stream<Path> files = Files.walk(this.temp.resolve(".wharf-buildcache"))) {
			assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
				.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.matches("[0-9a-f]{32}");
		}
		store.close();
	}

	@Test
	void aFullMemoryMountEvictsToMakeRoom() throws Exception {
		this.storage = new MemoryStorage("data", 64 * 1024);
		// A budget above what the mount holds: the mount refuses, the store evicts, the
		// retry fits.
		CacheStore store = store(this.storage, 1024 * 1024, Compression.NONE, KeyDigest.NONE);
		put(store, "first", randomBytes(1, 0, 40 * 1024));
		assertThatThrownBy(() -> put(store, "second", randomBytes(2, 0, 40 * 1024))).hasMessageContaining("full");
		awaitGone(store, "first");
		put(store, "second", randomBytes(2, 0, 40 * 1024));
		assertThat(get(store, "second")).isEqualTo(randomBytes(2, 0, 40 * 1024));
		assertThat(this.meters.get("wharf.buildcache.evictions").tag("reason", "space").counter().count()).isEqualTo(1);
		store.close();
	}

	@Test
	void readingAFolderOrAMissingEntryIsAMiss() throws Exception {
		Storage storage = local();
		CacheStore store = store(storage, 10_000_000, Compression.NONE, KeyDigest.NONE);
		put(store, "v1.1/g/a/00/file", randomBytes(1, 0, 10));
		assertThat(store.get(key("v1.1/g/a"), true).block(TIMEOUT)).isNull();
		assertThat(store.get(key("missing"), true).block(TIMEOUT)).isNull();
		assertThat(bytes(storage.read(store.pathOf(key("v1.1/g/a/00/file")), ByteRange.all()))).hasSize(10);
		assertThat(this.meters.get("wharf.buildcache.misses").counter().count()).isEqualTo(2);
		store.close();
	}

}
