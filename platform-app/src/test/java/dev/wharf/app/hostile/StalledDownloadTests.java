package dev.wharf.app.hostile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

import dev.wharf.core.autoconfigure.WebServerAutoConfiguration;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Downloads whose client stops reading, on every endpoint that streams a body from
 * storage: the file manager's {@code cat} of a local file, a static site's file (both
 * sent with {@code sendfile}) and a build-cache entry. Nothing closed such a connection
 * before (Reactor Netty's idle timeout watches connections between requests only), so
 * each held its file, its storage read and its connection for as long as the client kept
 * it open. Now it is closed once its bytes stop moving for
 * {@code wharf.http.write-timeout} (2 s here), counted in
 * {@value WebServerAutoConfiguration#STALLED_RESPONSES}, and the client gets a cut body;
 * a slow reader that keeps reading gets all of it. Its own server (cache entries as large
 * as the files, which the hostile tests' shared server refuses): one local mount for the
 * file manager, the build cache and a static site.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class StalledDownloadTests {

	/**
	 * Long enough that the slow reader below, 256 KB every 100 ms, keeps well inside it
	 * on a loaded machine: the kernel takes more of a response only once the client
	 * drained a good part of the socket's send buffer (up to 4 MB on loopback), which at
	 * that pace takes about a second, more when the reader's thread waits for a core.
	 */
	private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(3);

	/** Several times what the socket buffers hold (a few MB on loopback). */
	private static final int SIZE = 12 * 1024 * 1024;

	private static final String PASSWORD = "stalled-" + System.nanoTime();

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void stalledDownloads(DynamicPropertyRegistry registry) throws IOException {
		Files.createDirectories(temp.resolve("data").resolve("public"));
		WharfTestProperties.localMount(registry, temp);
		String hash = PasswordHashing.hash(PASSWORD);
		registry.add("wharf.security.users[0].name", () -> "alice");
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "user,cache-reader,cache-writer");
		registry.add("wharf.security.users[0].mounts.data", () -> "rw");
		registry.add("wharf.buildcache.mount", () -> "data");
		registry.add("wharf.buildcache.max-entry-size", () -> (2 * SIZE) + "B");
		registry.add("wharf.static.sites[0].prefix", () -> "/static/");
		registry.add("wharf.static.sites[0].mount", () -> "data");
		registry.add("wharf.static.sites[0].root", () -> "/public");
		registry.add("wharf.http.write-timeout", () -> WRITE_TIMEOUT.toMillis() + "ms");
	}

	private String cookie() throws IOException {
		String json = "{\"username\":\"alice\",\"password\":\"" + PASSWORD + "\"}";
		RawHttp.Response answer = RawHttp.exchange(this.port,
				"POST /api/session HTTP/1.1\r\nHost: x\r\n" + "Content-Type: application/json\r\nContent-Length: "
						+ json.length() + "\r\nConnection: close\r\n\r\n" + json);
		assertThat(answer.status()).as(answer.text()).isEqualTo(200);
		String setCookie = answer.header("set-cookie");
		return setCookie.substring(0, setCookie.indexOf(';'));
	}

	private static String basic() {
		return "Basic "
				+ java.util.Base64.getEncoder().encodeToString(("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
	}

	private double stalled() {
		Counter counter = this.meters.find(WebServerAutoConfiguration.STALLED_RESPONSES).counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** Puts a large file where an endpoint serves it; gives the request for it. */
	private String largeDownload(String endpoint) throws IOException {
		String name = HostileServerTestBase.unique("large") + ".bin";
		Path data = temp.resolve("data");
		byte[] content = new byte[SIZE];
		new SplittableRandom(SIZE).nextBytes(content);
		return switch (endpoint) {
			case "cat" -> {
				Files.write(data.resolve(name), content);
				yield "GET /api/files/cat?path=/data/" + name + " HTTP/1.1\r\nCookie: " + cookie()
						+ "\r\nX-Requested-With: XmlHttpRequest\r\n";
			}
			case "static" -> {
				Files.write(data.resolve("public").resolve(name), content);
				yield "GET /static/" + name + " HTTP/1.1\r\n";
			}
			default -> {
				try (RawHttp writer = RawHttp.openWithReceiveBuffer(this.port, 1024 * 1024)) {
					writer.send("PUT /cache/" + name + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + basic()
							+ "\r\nContent-Length: " + SIZE + "\r\nConnection: close\r\n\r\n");
					assertThat(writer.send(content).readHead().status()).isEqualTo(201);
				}
				yield "GET /cache/" + name + " HTTP/1.1\r\nAuthorization: " + basic() + "\r\n";
			}
		};
	}

	@ParameterizedTest
	@ValueSource(strings = { "cat", "static", "cache" })
	void aClientThatStopsReadingIsClosedAfterTheWriteTimeout(String endpoint) throws Exception {
		String request = largeDownload(endpoint);
		double before = stalled();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.port, 64 * 1024)) {
			long length = reader.send(request + "Host: x\r\n\r\n").readHead().contentLength();
			long stalledAt = System.nanoTime();
			await().atMost(RawHttp.PATIENCE).until(() -> stalled() > before);
			assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).isGreaterThanOrEqualTo(WRITE_TIMEOUT);
			assertThat(reader.drain()).as("the body was cut").isLessThan(length);
		}
		RawHttp.Response health = RawHttp.exchange(this.port,
				"GET /actuator/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(health.status()).isEqualTo(200);
	}

	@Test
	void aSlowButMovingReaderGetsTheWholeFile() throws Exception {
		String request = largeDownload("static");
		double before = stalled();
		long start = System.nanoTime();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.port, 1024 * 1024)) {
			long length = reader.send(request + "Host: x\r\n\r\n").readHead().contentLength();
			assertThat(length).isEqualTo(SIZE);
			// 256 KB, then a pause: far slower than loopback, but moving within every
			// write timeout.
			reader.readSlowly(length, 256 * 1024, Duration.ofMillis(100));
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("longer than the timeout")
			.isGreaterThan(WRITE_TIMEOUT.plusSeconds(1));
		assertThat(stalled()).isEqualTo(before);
	}

}
