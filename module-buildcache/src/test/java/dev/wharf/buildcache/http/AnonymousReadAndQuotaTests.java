package dev.wharf.buildcache.http;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A publicly readable cache that only authenticated writers fill, with a per-user request
 * quota.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class AnonymousReadAndQuotaTests {

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
		CacheTestUsers.register(registry);
		registry.add("wharf.buildcache.anonymous", () -> "read");
		registry.add("wharf.buildcache.base-path", () -> "/gradle-cache/");
		registry.add("wharf.buildcache.quota.per-user.requests", () -> "5");
		registry.add("wharf.buildcache.quota.per-user.period", () -> "1h");
	}

	@Test
	void anyoneReadsOnlyWritersWrite() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("GET", "/gradle-cache/public", headers(), null).status()).isEqualTo(404);
			Response anonymousPut = http.exchange("PUT", "/gradle-cache/public", headers(),
					"poison".getBytes(StandardCharsets.UTF_8));
			assertThat(anonymousPut.status()).isEqualTo(401);
			assertThat(anonymousPut.header("WWW-Authenticate")).startsWith("Basic realm=");
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http
				.exchange("PUT", "/gradle-cache/public", headers(CacheTestUsers.writer()),
						"entry".getBytes(StandardCharsets.UTF_8))
				.status()).isEqualTo(201);
			assertThat(http.exchange("GET", "/gradle-cache/public", headers(), null).text()).isEqualTo("entry");
			assertThat(http.exchange("HEAD", "/gradle-cache/public", headers(), null).header("Content-Length"))
				.isEqualTo("5");
			// The old base path is nobody's business.
			assertThat(http.exchange("GET", "/cache/public", headers(), null).status()).isEqualTo(404);
		}
	}

	@Test
	void aUserOverQuotaIsToldWhenToComeBack() throws Exception {
		String admin = "Authorization: " + RawHttp.basic(CacheTestUsers.ADMIN, CacheTestUsers.ADMIN_PASSWORD);
		try (RawHttp http = RawHttp.open(this.port)) {
			for (int i = 0; i < 5; i++) {
				assertThat(http.exchange("GET", "/gradle-cache/q" + i, headers(admin), null).status()).isEqualTo(404);
			}
			Response throttled = http.exchange("GET", "/gradle-cache/q", headers(admin), null);
			assertThat(throttled.status()).isEqualTo(429);
			// One token per 12 minutes.
			assertThat(Long.parseLong(throttled.header("Retry-After"))).isBetween(600L, 720L);
			assertThat(http.exchange("PUT", "/gradle-cache/q", headers(admin), new byte[1]).status()).isEqualTo(429);
			// Other callers have their own buckets, anonymous ones none.
			assertThat(http.exchange("GET", "/gradle-cache/q", headers(CacheTestUsers.reader()), null).status())
				.isEqualTo(404);
			assertThat(http.exchange("GET", "/gradle-cache/q", headers(), null).status()).isEqualTo(404);
		}
	}

}
