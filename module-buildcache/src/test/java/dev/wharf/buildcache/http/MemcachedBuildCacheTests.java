package dev.wharf.buildcache.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.memcached.MemcachedProcess;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cache on two real memcached servers started on free ports: entries spread over both
 * by consistent hashing, entries above memcached's 1 MB item limit stored in chunks, and
 * servers killed mid-run: their keys answer 503 at once (the others keep working), the
 * health check says DOWN, and everything works again once they are back.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class MemcachedBuildCacheTests {

	@TempDir
	static Path temp;

	static MemcachedProcess first;

	static MemcachedProcess second;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		first = MemcachedProcess.start(64);
		second = MemcachedProcess.start(64);
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "memcached");
		registry.add("wharf.storage.mounts.data.servers[0]", first::address);
		registry.add("wharf.storage.mounts.data.servers[1]", second::address);
		registry.add("wharf.storage.mounts.data.operation-timeout", () -> "5s");
		registry.add("wharf.storage.mounts.data.max-reconnect-delay", () -> "1s");
		CacheTestUsers.register(registry);
	}

	@AfterAll
	static void stopMemcached() {
		for (MemcachedProcess memcached : new MemcachedProcess[] { first, second }) {
			if (memcached != null) {
				memcached.close();
			}
		}
	}

	private static byte[] entry(long seed, int size) {
		return StorageTestSupport.randomBytes(seed, 0, size);
	}

	private static String key(int i) {
		return String.format("%032x", 0xabcdef00L + i);
	}

	private Response put(String key, byte[] body) throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.writer()), body);
		}
	}

	private Response get(String key) throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("GET", "/cache/" + key, headers(CacheTestUsers.reader()), null);
		}
	}

	private Response health() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("GET", "/cache", headers(), null);
		}
	}

	@Test
	void entriesSpreadOverBothServersAndSurviveServersGoingAwayAndComingBack(CapturedOutput output) throws Exception {
		int count = 30;
		for (int i = 0; i < count; i++) {
			assertThat(put(key(i), entry(i, 1000 + i)).status()).isEqualTo(201);
		}
		byte[] large = entry(99, 3 * 1024 * 1024 + 17);
		assertThat(put("large", large).status()).isEqualTo(201);
		assertThat(get("large").body()).isEqualTo(large);
		assertThat(first.items()).isPositive();
		assertThat(second.items()).isPositive();
		assertThat(health().status()).isEqualTo(200);

		second.kill();
		awaitHealth(503);
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Response response = get(key(i));
			statuses.add(response.status());
			if (response.status() == 200) {
				assertThat(response.body()).isEqualTo(entry(i, 1000 + i));
			}
			else {
				assertThat(response.header("Retry-After")).isNotNull();
			}
		}
		assertThat(statuses).containsOnly(200, 503).contains(200, 503);

		first.kill();
		for (int i = 0; i < 5; i++) {
			assertThat(get(key(i)).status()).isEqualTo(503);
			assertThat(put(key(100 + i), entry(i, 10)).status()).isEqualTo(503);
		}
		// The clients see a 503 only; the operator's log says which mount and why.
		assertThat(output).contains("Build cache storage unavailable: ").contains("'data'");

		first.restart();
		second.restart();
		awaitHealth(200);
		// The restarted servers are empty: misses, then the cache fills again.
		assertThat(get(key(0)).status()).isEqualTo(404);
		for (int i = 0; i < count; i++) {
			assertThat(put(key(i), entry(i, 1000 + i)).status()).isEqualTo(201);
			assertThat(get(key(i)).body()).isEqualTo(entry(i, 1000 + i));
		}
	}

	private void awaitHealth(int status) throws Exception {
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(health().status()).as("the health check's status").isEqualTo(status));
	}

}
