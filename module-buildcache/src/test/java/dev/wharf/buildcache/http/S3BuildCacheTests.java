package dev.wharf.buildcache.http;

import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cache on an {@code s3} mount on a real S3 server (S3Proxy keeping objects as files,
 * as a separate process): entries are objects in the bucket's reserved folder, entries
 * above a part are multipart uploads, and a server that dies makes the cache answer 503
 * and the health check DOWN until it is back with its entries.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
class S3BuildCacheTests {

	private static final String BUCKET = "build-cache";

	@TempDir
	static Path temp;

	static S3ProxyProcess s3;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.FILESYSTEM, temp.resolve("s3"));
		s3.createBucket(BUCKET);
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		s3.mountProperties("data", BUCKET).forEach((name, value) -> registry.add(name, () -> value));
		registry.add("wharf.storage.mounts.data.part-size", () -> "5MB");
		registry.add("wharf.storage.mounts.data.max-attempts", () -> "1");
		CacheTestUsers.register(registry);
	}

	@AfterAll
	static void stopS3() {
		if (s3 != null) {
			s3.close();
		}
	}

	private static byte[] entry(long seed, int size) {
		return StorageTestSupport.randomBytes(seed, 0, size);
	}

	private static String key(int i) {
		return String.format("%032x", 0x5300L + i);
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

	private int health() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("GET", "/cache", headers(), null).status();
		}
	}

	@Test
	void entriesAreObjectsAndSurviveTheServerGoingAwayAndComingBack() throws Exception {
		for (int i = 0; i < 10; i++) {
			assertThat(put(key(i), entry(i, 1000 + i)).status()).isEqualTo(201);
		}
		byte[] large = entry(99, 12 * 1024 * 1024 + 17);
		assertThat(put(key(99), large).status()).isEqualTo(201);
		assertThat(get(key(99)).body()).isEqualTo(large);
		assertThat(get(key(3)).body()).isEqualTo(entry(3, 1003));
		assertThat(get(key(50)).status()).isEqualTo(404);
		assertThat(s3.client().listObjectsV2(b -> b.bucket(BUCKET).prefix(".wharf-buildcache/")).contents())
			.hasSizeGreaterThanOrEqualTo(11);
		assertThat(health()).isEqualTo(200);

		s3.kill();
		Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> health() == 503);
		assertThat(get(key(3)).status()).isEqualTo(503);
		assertThat(put(key(20), entry(20, 10)).status()).isEqualTo(503);

		s3.restart();
		Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> health() == 200);
		assertThat(get(key(3)).body()).isEqualTo(entry(3, 1003));
		assertThat(get(key(99)).body()).isEqualTo(large);
	}

}
