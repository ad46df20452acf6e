package dev.wharf.buildcache.http;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.wharf.buildcache.store.CacheKey;
import dev.wharf.buildcache.store.CacheStore;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A GET or HEAD gets the same answer, and counts on the same meters, whichever way it
 * goes: answered at once (a remembered password, an entry the memory storage holds) or
 * through Reactor's operators (a password to check, an entry in a folder), on the fast
 * lane or on Reactor Netty's route. Each subclass runs these tests on one mount type with
 * the fast lane on or off, and each must give exactly the answers written here; within
 * one, the first request of a user has its password checked and the next is remembered.
 */
abstract class AbstractAnswerWaysTests {

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@Autowired
	Authenticator authenticator;

	@Autowired
	CacheStore store;

	@Autowired
	ObjectProvider<CacheFastLane> lane;

	/**
	 * Configures a subclass's application.
	 * @param registry from its {@code @DynamicPropertySource} method
	 * @param temp its temporary folder
	 * @param memory a memory mount, else a local one
	 * @param fastLane whether the fast lane is on
	 */
	static void properties(DynamicPropertyRegistry registry, Path temp, boolean memory, boolean fastLane) {
		if (memory) {
			WharfTestProperties.memoryMount(registry, temp);
		}
		else {
			WharfTestProperties.localMount(registry, temp);
			// Every GET through the storage: copies in memory are LocalHotEntriesTests'.
			registry.add("wharf.buildcache.hot-entries.max-size", () -> "0");
		}
		CacheTestUsers.register(registry);
		registry.add("wharf.buildcache.fast-lane", () -> Boolean.toString(fastLane));
	}

	/** Whether the mount holds its entries in memory, so they are read at once. */
	abstract boolean atHand();

	/** Whether the fast lane is on. */
	abstract boolean fastLane();

	@ParameterizedTest(name = "{0} bytes")
	@ValueSource(ints = { 0, 128, 4096, 100_000 })
	void aHitIsAnsweredAlikeWhetherThePasswordIsCheckedOrRemembered(int size) throws IOException {
		String key = "hit-" + size;
		byte[] entry = StorageTestSupport.randomBytes(size, 0, size);
		put(key, entry);
		assertThat(this.store.getAtHand(CacheKey.parse(key), true, Long.MAX_VALUE) != null).as("read at once")
			.isEqualTo(atHand());
		Map<String, List<String>> expected = Map.of("content-type", List.of("application/octet-stream"),
				"content-length", List.of(Integer.toString(size)));
		for (String method : List.of("GET", "HEAD")) {
			this.authenticator.forget(CacheTestUsers.READER);
			Response checked = null;
			for (int i = 0; i < 2; i++) {
				Meters before = new Meters();
				long answered = answered();
				Response response = keptAlive(method, key, CacheTestUsers.reader());
				String what = method + " " + ((i == 0) ? "checked" : "remembered");
				assertThat(response.status()).as(what).isEqualTo(200);
				assertThat(withoutConnection(response)).as(what).isEqualTo(expected);
				assertThat(response.body()).as(what).isEqualTo(method.equals("GET") ? entry : new byte[0]);
				boolean get = method.equals("GET");
				// A streamed entry's read is done once its last buffer is written, which
				// the
				// client may see first.
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> new Meters().assertCounted(before, 1, 0, 1, get ? 1 : 0, get ? size : 0));
				assertThat(answered()).as("answered by the fast lane").isEqualTo(answered + (fastLane() ? 1 : 0));
				if (checked != null) {
					assertThat(response.headers()).as(what).isEqualTo(checked.headers());
				}
				checked = response;
			}
		}
	}

	@Test
	void aMissIsA404CountedAlike() throws IOException {
		this.authenticator.forget(CacheTestUsers.READER);
		for (String method : List.of("GET", "HEAD", "GET", "HEAD")) {
			Meters before = new Meters();
			Response response = keptAlive(method, "missing", CacheTestUsers.reader());
			assertThat(response.status()).as(method).isEqualTo(404);
			assertThat(withoutConnection(response)).as(method).isEqualTo(Map.of("content-length", List.of("0")));
			assertThat(response.body()).isEmpty();
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				new Meters().assertCounted(before, 0, 1, 0, 0, 0);
				assertThat(timer("stat", "not_found").count()).isEqualTo(before.statsNotFound + 1);
			});
		}
	}

	@Test
	void aWrongPasswordAndAMissingRoleAreRefusedAlike() throws IOException {
		put("refused", new byte[] { 1, 2, 3 });
		Counter unauthorized = rejections("unauthorized");
		Counter forbidden = rejections("forbidden");
		for (int i = 0; i < 2; i++) {
			double before = unauthorized.count();
			Response wrong = keptAlive("GET", "refused",
					"Authorization: " + RawHttp.basic(CacheTestUsers.READER, "not-the-password"));
			assertThat(wrong.status()).isEqualTo(401);
			assertThat(wrong.header("WWW-Authenticate"))
				.isEqualTo("Basic realm=\"Wharf build cache\", charset=\"UTF-8\"");
			assertThat(wrong.text()).isEqualTo("Wrong user name or password\n");
			assertThat(unauthorized.count()).isEqualTo(before + 1);
		}
		this.authenticator.forget(CacheTestUsers.PLAIN);
		for (int i = 0; i < 2; i++) {
			double before = forbidden.count();
			Response plain = keptAlive("GET", "refused", CacheTestUsers.plain());
			assertThat(plain.status()).isEqualTo(403);
			assertThat(plain.text()).isEqualTo("User 'plain' may not read cache entries\n");
			assertThat(forbidden.count()).isEqualTo(before + 1);
		}
	}

	@Test
	void aLockedOutClientIsRefusedEvenWithARememberedPassword() throws IOException {
		put("locked", new byte[] { 4, 5, 6 });
		String right = CacheTestUsers.admin();
		String wrong = "Authorization: " + RawHttp.basic(CacheTestUsers.ADMIN, "guess");
		// Remembered from here on.
		assertThat(keptAlive("GET", "locked", right).status()).isEqualTo(200);
		int status = 0;
		for (int i = 0; i < 10 && status != 429; i++) {
			status = keptAlive("GET", "locked", wrong).status();
		}
		assertThat(status).isEqualTo(429);
		Counter throttled = rejections("throttled");
		double before = throttled.count();
		Response locked = keptAlive("GET", "locked", right);
		assertThat(locked.status()).isEqualTo(429);
		assertThat(locked.header("Retry-After")).isNotNull();
		assertThat(locked.text()).startsWith("Too many requests; retry in ");
		assertThat(throttled.count()).isEqualTo(before + 1);
		// Only the lock refused it.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> keptAlive("GET", "locked", right).status() == 200);
	}

	private void put(String key, byte[] entry) throws IOException {
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.writer()), entry).status())
				.isEqualTo(201);
		}
	}

	private Response keptAlive(String method, String key, String authorization) throws IOException {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange(method, "/cache/" + key, headers(authorization, "Connection: keep-alive"), null);
		}
	}

	private long answered() {
		CacheFastLane fastLane = this.lane.getIfAvailable();
		assertThat(fastLane != null).as("fast lane").isEqualTo(fastLane());
		return (fastLane != null) ? fastLane.answered() : 0;
	}

	private Counter rejections(String reason) {
		return this.meters.counter("wharf.buildcache.rejections", "mount", "data", "backend",
				atHand() ? "memory" : "local", "reason", reason);
	}

	private Timer timer(String operation, String outcome) {
		return this.meters.timer("wharf.storage.operations", "mount", "data", "type", atHand() ? "memory" : "local",
				"operation", operation, "outcome", outcome);
	}

	private double cacheCount(String name, String... tags) {
		Counter counter = this.meters.find(name).tag("mount", "data").tags(tags).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static Map<String, List<String>> withoutConnection(Response response) {
		Map<String, List<String>> rest = new java.util.HashMap<>(response.headers());
		// Asked for, so confirmed on every way.
		assertThat(rest.remove("connection")).isEqualTo(List.of("keep-alive"));
		return rest;
	}

	/** The meters a GET or HEAD counts on, at one moment. */
	private final class Meters {

		final double hits = cacheCount("wharf.buildcache.hits");

		final double misses = cacheCount("wharf.buildcache.misses");

		final double bytesOut = cacheCount("wharf.buildcache.bytes", "direction", "out");

		final long stats = timer("stat", "success").count();

		final long statsNotFound = timer("stat", "not_found").count();

		final long reads = timer("read", "success").count();

		final double bytesRead = AbstractAnswerWaysTests.this.meters
			.counter("wharf.storage.bytes", "mount", "data", "type", atHand() ? "memory" : "local", "direction", "read")
			.count();

		void assertCounted(Meters before, int hits, int misses, int stats, int reads, int bytes) {
			assertThat(this.hits).as("hits").isEqualTo(before.hits + hits);
			assertThat(this.misses).as("misses").isEqualTo(before.misses + misses);
			assertThat(this.bytesOut).as("bytes out").isEqualTo(before.bytesOut + bytes);
			assertThat(this.stats).as("stats").isEqualTo(before.stats + stats);
			assertThat(this.reads).as("reads").isEqualTo(before.reads + reads);
			assertThat(this.bytesRead).as("bytes read").isEqualTo(before.bytesRead + bytes);
		}

	}

}
