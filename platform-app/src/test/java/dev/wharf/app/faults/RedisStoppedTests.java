package dev.wharf.app.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.RedisProcess;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPConnectionClosedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The application with {@code wharf.state.store: redis} on a real Redis that is stopped
 * in the middle and started again: while it is down, logins and session and token checks
 * answer 503 with {@code Retry-After} (FTP 421), never 401 or 500, and nobody is logged
 * out; a download that was running finishes; build cache reads with credentials checked
 * before keep being served; readiness stays UP while health shows the {@code redis}
 * component DOWN. Once Redis is back everything works again, the sessions and tokens of
 * before included.
 */
class RedisStoppedTests extends FaultTestBase {

	private static final int LARGE = 8 * 1024 * 1024;

	static RedisProcess redis;

	@LocalManagementPort
	int managementPort;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		redis = RedisProcess.begin();
		WharfTestProperties.localMount(registry, temp);
		registry.add("wharf.state.store", () -> "redis");
		registry.add("spring.data.redis.url", redis::url);
		register(registry);
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void whileRedisIsStoppedLoginsAndChecksAnswer503AndEverythingWorksOnceItIsBack() throws Exception {
		byte[] large = StorageTestSupport.randomBytes(21, 0, LARGE);
		byte[] small = StorageTestSupport.randomBytes(22, 0, 5000);
		assertThat(files("POST", "save", "/data/large.bin", large).status()).isEqualTo(200);
		assertThat(cache("PUT", "entry", small).status()).isEqualTo(201);
		String cookie = login();
		assertThat(ls(cookie).status()).isEqualTo(200);
		assertThat(redis.keys("wharf:*")).anyMatch(key -> key.startsWith("wharf:session:"))
			.anyMatch(key -> key.startsWith("wharf:token:"))
			.anyMatch(key -> key.startsWith("wharf:buildcache:data/.wharf-buildcache:"));
		assertThat(health(this.managementPort, "/actuator/health")).contains("\"redis\":{\"status\":\"UP\"");

		try (RawHttp download = RawHttp.openWithReceiveBuffer(this.port, 32 * 1024)) {
			download.sendHead("GET", "/api/files/cat?path=/data/large.bin", headers(bearer()), -1);
			assertThat(download.readHead().status()).isEqualTo(200);
			long received = download.read(256 * 1024).length;
			redis.stop();
			received += download.drain();
			assertThat(received).as("a transfer that was running finishes").isEqualTo(LARGE);
		}

		// A session or token found lately is answered from memory for a second
		// (RedisSessionStore.CACHE_TIME), and
		// the token was used by the download, which may have ended within that second.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> ls(cookie).status() == 503 && files("GET", "ls", "/data/", null).status() == 503);
		assertUnavailable(ls(cookie));
		assertUnavailable(files("GET", "ls", "/data/", null));
		assertUnavailable(loginAnswer());
		assertUnavailable(cache("PUT", "other", small));
		assertUnavailable(exchange("GET", "/cache/entry", RawHttp.basic(USER, "not-the-password"), null));
		assertThat(cache("GET", "entry", null).body()).as("a read with credentials checked before").isEqualTo(small);
		FTPClient ftp = new FTPClient();
		try {
			ftp.connect("127.0.0.1", this.ftpServer.port());
			// Commons Net reports a 421 as the connection closed, which it then is.
			assertThatThrownBy(() -> ftp.login(USER, "not-the-password"))
				.isInstanceOf(FTPConnectionClosedException.class)
				.hasMessageContaining("421");
		}
		finally {
			quit(ftp);
		}
		assertThat(get("/actuator/health/readiness").status()).isEqualTo(200);
		assertThat(get("/actuator/health/liveness").status()).isEqualTo(200);
		assertThat(health(this.managementPort, "/actuator/health")).contains("\"redis\":{\"status\":\"DOWN\"");

		redis.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> ls(cookie).status() == 200);
		assertThat(files("GET", "ls", "/data/", null).status()).as("the token of before").isEqualTo(200);
		assertThat(cache("PUT", "other", small).status()).isEqualTo(201);
		assertThat(loginAnswer().status()).isEqualTo(200);
		assertThat(health(this.managementPort, "/actuator/health")).contains("\"redis\":{\"status\":\"UP\"");
	}

	private static void assertUnavailable(Response response) {
		assertThat(response.status()).as(response.text()).isEqualTo(503);
		assertThat(response.header("Retry-After")).isNotNull();
	}

	private Response ls(String cookie) throws Exception {
		return exchange(this.port, "GET", "/api/files/ls?path=/data/",
				headers(null, "Cookie: " + cookie, "X-Requested-With: XmlHttpRequest"), null);
	}

	private Response loginAnswer() throws Exception {
		byte[] form = ("{\"username\":\"" + USER + "\",\"password\":\"" + PASSWORD + "\"}")
			.getBytes(StandardCharsets.UTF_8);
		return exchange(this.port, "POST", "/api/session", headers(null, "Content-Type: application/json"), form);
	}

	private String login() throws Exception {
		Response login = loginAnswer();
		assertThat(login.status()).as(login.text()).isEqualTo(200);
		String cookie = login.header("Set-Cookie");
		return cookie.substring(0, cookie.indexOf(';'));
	}

	private static String health(int port, String path) throws Exception {
		return exchange(port, "GET", path, headers(null), null).text();
	}

}
