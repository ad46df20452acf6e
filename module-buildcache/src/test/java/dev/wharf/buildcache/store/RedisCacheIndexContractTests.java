package dev.wharf.buildcache.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.wharf.core.state.redis.RedisLocks;
import dev.wharf.core.state.redis.RedisState;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The index contract with the index in a real Redis, each store a "replica" with a client
 * of its own; and what only the shared index does: replicas writing into one folder at
 * once stay within the budget together, an index that Redis lost is built again from the
 * folder, idle entries go.
 */
class RedisCacheIndexContractTests extends AbstractCacheIndexContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	private RedisClients clients;

	private final List<RedisCacheIndex> made = new ArrayList<>();

	@BeforeEach
	void connect() throws Exception {
		redis.server().flushAll();
		this.clients = new RedisClients(redis.server());
	}

	@AfterEach
	void disconnect() {
		this.clients.close();
	}

	@Override
	protected CacheIndex.Factory indexes() {
		return (settings, evictor) -> {
			RedisState state = this.clients.state("wharf:");
			// Uses are written when a test says so (and at close), never by the timer in
			// the middle of a test.
			RedisCacheIndex index = new RedisCacheIndex(settings, evictor, state, new RedisLocks(state),
					Duration.ofHours(1));
			this.made.add(index);
			return index;
		};
	}

	@Override
	protected void usesWritten(CacheStore store) {
		((RedisCacheIndex) store.index()).writeUses().block(TIMEOUT);
	}

	@Override
	protected void started(CacheStore store) {
		// The index is built from the folder at the first start: an entry forgotten while
		// that runs would be
		// found again, which is the building's business, not every test's.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> !redis.server().keys("wharf:buildcache:data/.wharf-buildcache:built").isEmpty());
	}

	@Test
	void roomForAWriteIsMadeBeforeTheWriteGoesAhead() throws Exception {
		CacheStore store = store(3 * W + 100);
		for (String key : new String[] { "a", "b", "c" }) {
			put(store, key, randomBytes(1, 0, 3000));
		}
		// Chosen any later, the entries to go would be chosen with the new entry
		// recorded: one too many would go.
		store.index().makeRoom(3000).block(TIMEOUT);
		assertThat(
				Long.parseLong((String) redis.server().command("GET", "wharf:buildcache:data/.wharf-buildcache:bytes")))
			.isEqualTo(2 * W);
		assertThat(redis.server().command("ZRANGE", "wharf:buildcache:data/.wharf-buildcache:lru", "0", "-1")).asList()
			.containsExactly("/.wharf-buildcache/b", "/.wharf-buildcache/c");
		store.close();
	}

	@Test
	void anUpkeepCancelledWhileItEvictsLetsGoOfTheLock() throws Exception {
		RedisState state = this.clients.state("wharf:");
		Files.createDirectories(this.temp.resolve(".wharf-buildcache"));
		CountDownLatch evicting = new CountDownLatch(1);
		RedisCacheIndex index = new RedisCacheIndex(
				new CacheIndex.Settings("data", storage(), FOLDER, 10 * W, Duration.ofDays(7), this.clock),
				(victims, reason) -> {
					evicting.countDown();
					return Mono.never();
				}, state, new RedisLocks(state), Duration.ofHours(1));
		index.record(StoragePath.reserved("/.wharf-buildcache/old"), 3000).block(TIMEOUT);
		this.clock.advance(Duration.ofDays(8));
		// As when the index is closed while its upkeep deletes idle entries.
		Disposable upkeep = index.upkeep().subscribe();
		assertThat(evicting.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(redis.server().keys("wharf:lock:*evicting")).hasSize(1);
		upkeep.dispose();
		await().atMost(Duration.ofSeconds(10)).until(() -> redis.server().keys("wharf:lock:*evicting").isEmpty());
		index.close();
	}

	@Test
	void threeReplicasWritingAtOnceStayWithinTheBudgetTogether() throws Exception {
		long budget = 20 * W;
		List<CacheStore> replicas = List.of(store(budget), store(budget), store(budget));
		Flux.range(0, 150)
			.flatMap(i -> replicas.get(i % 3)
				.put(CacheKey.parse("k" + i), content(randomBytes(i, 0, 3000)), 3000)
				.subscribeOn(Schedulers.parallel()), 6)
			.blockLast(Duration.ofMinutes(2));
		await().atMost(Duration.ofSeconds(30)).until(() -> onDisk() <= budget + W);
		assertThat(
				Long.parseLong((String) redis.server().command("GET", "wharf:buildcache:data/.wharf-buildcache:bytes")))
			.isLessThanOrEqualTo(budget)
			.isEqualTo(onDisk() / 3000 * W);
		assertThat(get(replicas.get(0), "k149")).as("the last entry, written through the third replica")
			.isEqualTo(randomBytes(149, 0, 3000));
		replicas.forEach(CacheStore::close);
	}

	@Test
	void anIndexRedisLostIsBuiltAgainFromTheFolder() throws Exception {
		CacheStore first = store(10 * W);
		put(first, "a", randomBytes(1, 0, 3000));
		put(first, "b", randomBytes(2, 0, 3000));
		first.close();
		redis.server().flushAll();
		CacheStore second = store(10 * W);
		await().atMost(Duration.ofSeconds(20)).until(() -> second.index().entries() == 2);
		assertThat(redis.server().keys("wharf:buildcache:*")).containsExactlyInAnyOrder(
				"wharf:buildcache:data/.wharf-buildcache:lru", "wharf:buildcache:data/.wharf-buildcache:sizes",
				"wharf:buildcache:data/.wharf-buildcache:bytes", "wharf:buildcache:data/.wharf-buildcache:built");
		assertThat(second.index().bytes()).isEqualTo(2 * W);
		second.close();
	}

	@Test
	void idleEntriesGo() throws Exception {
		CacheStore store = store(10 * W);
		put(store, "old", randomBytes(1, 0, 3000));
		this.clock.advance(Duration.ofDays(6));
		put(store, "new", randomBytes(2, 0, 3000));
		this.clock.advance(Duration.ofDays(2));
		// Upkeep runs on a timer too; a round that finds the eviction lock taken leaves
		// idle entries to the next.
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			this.made.get(0).upkeep().block(TIMEOUT);
			return Files.notExists(this.temp.resolve(".wharf-buildcache/old"));
		});
		assertThat(get(store, "old")).isNull();
		assertThat(get(store, "new")).hasSize(3000);
		assertThat(this.meters.get("wharf.buildcache.evictions").tag("reason", "age").counter().count()).isEqualTo(1);
		store.close();
	}

	private long onDisk() throws Exception {
		Path folder = this.temp.resolve(".wharf-buildcache");
		try (Stream<Path> files = Files.list(folder)) {
			return files.filter(file -> file.getFileName().toString().startsWith("k")).mapToLong(file -> {
				try {
					return Files.size(file);
				}
				catch (IOException gone) {
					return 0;
				}
			}).sum();
		}
	}

}
