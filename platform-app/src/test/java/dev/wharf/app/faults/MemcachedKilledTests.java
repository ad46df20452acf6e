package dev.wharf.app.faults;

import java.io.ByteArrayOutputStream;
import java.time.Duration;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.memcached.MemcachedProcess;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.apache.commons.net.ftp.FTPClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real memcached behind the build cache and behind a {@code memcached} mount that the
 * file manager and FTP serve, killed in the middle of a download and started again on the
 * same port: the download ends short of its length; while it is down every protocol
 * answers "unavailable" at once (cache and file manager 503 with {@code Retry-After}, the
 * cache also for a key that was never stored, FTP 451) and other mounts keep working;
 * after the restart everything works again without restarting Wharf. A restarted
 * memcached is empty: what it held is gone, as with any cache (README, "memcached
 * mounts"). (Two servers, one of them killed, are in module-buildcache's
 * MemcachedBuildCacheTests.)
 */
class MemcachedKilledTests extends FaultTestBase {

	private static final int LARGE = 20 * 1024 * 1024;

	static MemcachedProcess memcached;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		memcached = MemcachedProcess.start(128);
		WharfTestProperties.localMount(registry, temp);
		registry.add("wharf.storage.mounts.shared.type", () -> "memcached");
		registry.add("wharf.storage.mounts.shared.servers[0]", memcached::address);
		registry.add("wharf.storage.mounts.shared.max-reconnect-delay", () -> "1s");
		registry.add("wharf.buildcache.mount", () -> "shared");
		registry.add("wharf.ftp.mounts", () -> "data,shared");
		register(registry);
	}

	@AfterAll
	static void stopMemcached() {
		if (memcached != null) {
			memcached.close();
		}
	}

	@Test
	void aKilledMemcachedFailsTransfersAtOnceAndIsUsedAgainAfterItsRestart() throws Exception {
		byte[] large = StorageTestSupport.randomBytes(11, 0, LARGE);
		byte[] small = StorageTestSupport.randomBytes(12, 0, 5_000);
		assertThat(save("/shared/large.bin", large).status()).isEqualTo(200);
		assertThat(save("/shared/small.bin", small).status()).isEqualTo(200);
		assertThat(cache("PUT", "entry", small).status()).isEqualTo(201);

		try (RawHttp http = RawHttp.openWithReceiveBuffer(this.port, 32 * 1024)) {
			http.sendHead("GET", "/api/files/cat?path=/shared/large.bin", headers(bearer()), -1);
			Response head = http.readHead();
			assertThat(head.status()).isEqualTo(200);
			long received = http.read(256 * 1024).length;
			memcached.kill();
			received += http.drain();
			assertThat(received).as("the connection must close short of the length").isLessThan(LARGE);
		}

		Response entry = cache("GET", "entry", null);
		assertThat(entry.status()).isEqualTo(503);
		assertThat(entry.header("Retry-After")).isNotNull();
		assertThat(cache("GET", "never-stored", null).status()).as("down is not a miss").isEqualTo(503);
		assertThat(cache("PUT", "other", small).status()).isEqualTo(503);
		assertThat(cache("GET", "", null).status()).as("the cache's health check").isEqualTo(503);
		for (Response answer : new Response[] { cat("/shared/small.bin"), save("/shared/new.bin", small) }) {
			assertThat(answer.status()).isEqualTo(503);
			assertThat(answer.header("Retry-After")).isEqualTo("5");
		}
		assertThat(save("/data/elsewhere.bin", small).status()).as("other mounts keep working").isEqualTo(200);
		FTPClient ftp = ftp();
		try {
			assertThat(ftp.retrieveFile("/shared/small.bin", new ByteArrayOutputStream())).isFalse();
			assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(451);

			memcached.restart();
			awaitCacheHealth();
			assertThat(cache("GET", "entry", null).status()).as("a restarted memcached is empty").isEqualTo(404);
			assertThat(cache("PUT", "entry", small).status()).isEqualTo(201);
			assertThat(cache("GET", "entry", null).body()).isEqualTo(small);
			assertThat(save("/shared/large.bin", large).status()).isEqualTo(200);
			assertThat(cat("/shared/large.bin").body()).isEqualTo(large);
			ByteArrayOutputStream retrieved = new ByteArrayOutputStream();
			assertThat(ftp.retrieveFile("/shared/large.bin", retrieved)).as(ftp.getReplyString()).isTrue();
			assertThat(retrieved.toByteArray()).isEqualTo(large);
		}
		finally {
			quit(ftp);
		}
	}

	private void awaitCacheHealth() throws Exception {
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(cache("GET", "", null).status()).isEqualTo(200));
	}

	private Response save(String path, byte[] content) throws Exception {
		return files("POST", "save", path, content);
	}

	private Response cat(String path) throws Exception {
		return files("GET", "cat", path, null);
	}

}
