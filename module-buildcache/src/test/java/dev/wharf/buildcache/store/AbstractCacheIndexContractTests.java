package dev.wharf.buildcache.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.local.LocalStorage;
import dev.wharf.core.testsupport.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link CacheIndex} does under a {@link CacheStore} on a real local folder,
 * whether in this process or shared by replicas: least recently used entries go past the
 * budget, a read counts as a use, an entry deleted behind the cache's back is forgotten,
 * and a restarted store knows the entries it had.
 */
public abstract class AbstractCacheIndexContractTests {

	protected static final StoragePath FOLDER = StoragePath.reserved("/.wharf-buildcache");

	/** The weight of a 3000-byte entry. */
	protected static final long W = 3000 + LruIndex.ENTRY_CHARGE;

	@TempDir
	protected Path temp;

	protected final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	/**
	 * The stores' clock: a millisecond further on every reading, so that no two uses are
	 * one instant even when they are, and moved by hand where a test wants uses far
	 * apart. A day ahead of the files' times: a restarted index orders entries by the
	 * uses it recorded, not by when the files were written.
	 */
	protected final MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofDays(1)), Duration.ofMillis(1));

	private Storage storage;

	/** How indexes are made; each call of the factory is one replica's index. */
	protected abstract CacheIndex.Factory indexes();

	/**
	 * Waits until the uses recorded so far count for every replica (an index that batches
	 * them writes them now).
	 * @param store the store whose index saw the uses
	 */
	protected abstract void usesWritten(CacheStore store);

	/**
	 * Waits until a store's index has been loaded or built, so that what a test does next
	 * is not raced by it.
	 * @param store the store just started
	 */
	protected abstract void started(CacheStore store);

	@AfterEach
	void closeStorage() {
		if (this.storage != null) {
			this.storage.close();
		}
	}

	protected Storage storage() throws IOException {
		if (this.storage == null) {
			this.storage = new LocalStorage("data", this.temp, false, 4);
		}
		return this.storage;
	}

	protected CacheStore store(long maxBytes) throws IOException {
		CacheStore store = new CacheStore(
				"data", storage(), new CacheStore.Settings(FOLDER, KeyDigest.NONE, Compression.NONE, 10 * 1024 * 1024,
						maxBytes, Duration.ofDays(7)),
				new CacheMetrics(this.meters, "data", "local"), indexes(), this.clock);
		store.start().block(TIMEOUT);
		started(store);
		return store;
	}

	protected static void put(CacheStore store, String key, byte[] bytes) {
		store.put(CacheKey.parse(key), content(bytes), bytes.length).block(TIMEOUT);
	}

	protected static byte[] get(CacheStore store, String key) {
		CacheEntry entry = store.get(CacheKey.parse(key), true).block(TIMEOUT);
		return (entry != null) ? bytes(entry.content()) : null;
	}

	protected static void awaitGone(CacheStore store, String key) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> store.get(CacheKey.parse(key), false).block(TIMEOUT) == null);
	}

	@Test
	void theLeastRecentlyUsedEntriesGoPastTheBudgetAndAReadIsAUse() throws Exception {
		CacheStore store = store(3 * W + 100);
		for (String key : new String[] { "a", "b", "c" }) {
			put(store, key, randomBytes(1, 0, 3000));
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(get(store, "a")).hasSize(3000);
		usesWritten(store);
		this.clock.advance(Duration.ofSeconds(1));
		put(store, "d", randomBytes(2, 0, 3000));
		awaitGone(store, "b");
		assertThat(get(store, "a")).hasSize(3000);
		assertThat(get(store, "c")).hasSize(3000);
		assertThat(get(store, "d")).hasSize(3000);
		await().atMost(Duration.ofSeconds(20)).until(() -> store.index().bytes() == 3 * W);
		assertThat(this.meters.get("wharf.buildcache.evictions").tag("reason", "size").counter().count()).isEqualTo(1);
		store.close();
	}

	@Test
	void anEntryDeletedBehindTheCachesBackIsForgotten() throws Exception {
		CacheStore store = store(10 * W);
		put(store, "a", randomBytes(1, 0, 3000));
		put(store, "b", randomBytes(2, 0, 3000));
		Files.delete(this.temp.resolve(".wharf-buildcache/a"));
		assertThat(get(store, "a")).isNull();
		await().atMost(Duration.ofSeconds(20)).until(() -> store.index().bytes() == W);
		store.close();
	}

	@Test
	void aRestartedStoreKnowsItsEntries() throws Exception {
		CacheStore first = store(3 * W + 100);
		put(first, "a", randomBytes(1, 0, 3000));
		this.clock.advance(Duration.ofSeconds(1));
		put(first, "b", randomBytes(2, 0, 3000));
		first.close();
		CacheStore second = store(3 * W + 100);
		await().atMost(Duration.ofSeconds(20)).until(() -> second.index().entries() == 2);
		assertThat(second.index().bytes()).isEqualTo(2 * W);
		put(second, "c", randomBytes(3, 0, 3000));
		put(second, "d", randomBytes(4, 0, 3000));
		awaitGone(second, "a");
		assertThat(get(second, "b")).hasSize(3000);
		second.close();
	}

}
