package dev.wharf.buildcache.http;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
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

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cache protocol as Gradle's {@code HttpBuildCache} speaks it (Apache HttpClient:
 * preemptive Basic credentials, Gradle's content type and version header,
 * {@code Expect: 100-continue} when {@code useExpectContinue} is on), byte for byte over
 * a socket, against a memory mount.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class GradleProtocolTests {

	private static final String GRADLE_TYPE = "application/vnd.gradle.build-cache-artifact.v2";

	private static final int MAX_ENTRY = 1024 * 1024;

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
		CacheTestUsers.register(registry);
		registry.add("wharf.buildcache.max-entry-size", () -> MAX_ENTRY + "B");
	}

	private static String key(String name) {
		return Integer.toHexString(name.hashCode()) + "0123456789abcdef0123456789abcdef".substring(0, 24);
	}

	private static byte[] entry(long seed, int size) {
		return StorageTestSupport.randomBytes(seed, 0, size);
	}

	private static List<String> gradlePut(String... extra) {
		List<String> headers = headers("Content-Type: " + GRADLE_TYPE, "X-Gradle-Version: 8.14.3",
				"User-Agent: Gradle/8.14.3 (Linux;6.1;amd64) (Eclipse Adoptium;17.0.15;17.0.15+6)",
				"Connection: Keep-Alive", "Accept-Encoding: gzip,deflate", CacheTestUsers.writer());
		headers.addAll(List.of(extra));
		return headers;
	}

	private static List<String> gradleGet(String authorization) {
		return headers("Accept: " + GRADLE_TYPE + ", */*", "X-Gradle-Version: 8.14.3", "Connection: Keep-Alive",
				"Accept-Encoding: gzip,deflate", authorization);
	}

	@ParameterizedTest(name = "Expect: 100-continue {0}")
	@ValueSource(booleans = { false, true })
	void aMissIs404AndAStoredEntryComesBackByteForByte(boolean expectContinue) throws Exception {
		String key = key("round-trip-" + expectContinue);
		byte[] entry = entry(expectContinue ? 1 : 2, 200_000);
		try (RawHttp http = RawHttp.open(this.port)) {
			Response miss = http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.writer()), null);
			assertThat(miss.status()).isEqualTo(404);
			assertThat(miss.body()).isEmpty();

			Response stored;
			if (expectContinue) {
				http.sendHead("PUT", "/cache/" + key, gradlePut("Expect: 100-continue"), entry.length);
				Response interim = http.readWithin(Duration.ofSeconds(10));
				assertThat(interim).isNotNull();
				assertThat(interim.status()).isEqualTo(100);
				http.send(entry);
				stored = http.read();
			}
			else {
				stored = http.exchange("PUT", "/cache/" + key, gradlePut(), entry);
			}
			assertThat(stored.status()).isEqualTo(201);

			// The same keep-alive connection serves the next requests.
			Response hit = http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null);
			assertThat(hit.status()).isEqualTo(200);
			assertThat(hit.header("Content-Type")).isEqualTo("application/octet-stream");
			assertThat(hit.header("Content-Length")).isEqualTo(Integer.toString(entry.length));
			assertThat(hit.body()).isEqualTo(entry);

			Response head = http.exchange("HEAD", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null);
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(entry.length));
		}
	}

	@ParameterizedTest(name = "{0} bytes")
	@ValueSource(ints = { 0, 1, 128, 4096, 60_000, 65_536 })
	void entriesSentInOneMessageComeBackByteForByte(int size) throws Exception {
		// Up to 64 KiB an entry goes out with its headers in one message, however many
		// pieces the storage holds.
		String key = key("whole-" + size);
		byte[] entry = entry(size, size);
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("PUT", "/cache/" + key, gradlePut(), entry).status()).isEqualTo(201);
			for (int i = 0; i < 3; i++) {
				Response hit = http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null);
				assertThat(hit.status()).isEqualTo(200);
				assertThat(hit.header("Content-Length")).isEqualTo(Integer.toString(size));
				assertThat(hit.body()).isEqualTo(entry);
			}
		}
	}

	@Test
	void continueIsSentOnlyAfterCredentialsRoleAndSizeAreChecked() throws Exception {
		byte[] entry = entry(3, 1000);
		record Case(List<String> headers, int status) {
		}
		List<Case> refused = List.of(new Case(headers("Content-Type: " + GRADLE_TYPE, "Expect: 100-continue"), 401),
				new Case(headers("Content-Type: " + GRADLE_TYPE, "Expect: 100-continue",
						"Authorization: " + RawHttp.basic(CacheTestUsers.WRITER, "wrong")), 401),
				new Case(headers("Content-Type: " + GRADLE_TYPE, "Expect: 100-continue", CacheTestUsers.reader()), 403),
				new Case(headers("Content-Type: " + GRADLE_TYPE, "Expect: 100-continue", CacheTestUsers.writer(),
						"Content-Length: " + (MAX_ENTRY + 1)), 413));
		for (Case refusal : refused) {
			try (RawHttp http = RawHttp.open(this.port)) {
				String key = key("refused-" + refusal.status());
				http.sendHead("PUT", "/cache/" + key, refusal.headers(), entry.length);
				// The final answer comes at once, never "100 Continue": the client keeps
				// its body.
				Response response = http.readWithin(Duration.ofSeconds(20));
				assertThat(response).isNotNull();
				assertThat(response.status()).isEqualTo(refusal.status());
			}
			try (RawHttp http = RawHttp.open(this.port)) {
				Response get = http.exchange("GET", "/cache/" + key("refused-" + refusal.status()),
						gradleGet(CacheTestUsers.writer()), null);
				assertThat(get.status()).isEqualTo(404);
			}
		}
	}

	@Test
	void every401CarriesABasicChallenge() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			for (Response response : List.of(http.exchange("GET", "/cache/" + key("x"), headers(), null),
					http.exchange("HEAD", "/cache/" + key("x"), headers(), null),
					http.exchange("GET", "/cache/" + key("x"),
							headers("Authorization: " + RawHttp.basic(CacheTestUsers.READER, "wrong")), null),
					http.exchange("GET", "/cache/" + key("x"), headers("Authorization: Bearer abc"), null),
					http.exchange("GET", "/cache/" + key("x"), headers("Authorization: Basic !!!"), null))) {
				assertThat(response.status()).isEqualTo(401);
				assertThat(response.header("WWW-Authenticate"))
					.isEqualTo("Basic realm=\"Wharf build cache\", charset=\"UTF-8\"");
			}
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			Response put = http.exchange("PUT", "/cache/" + key("anonymous"), headers(), entry(4, 10));
			assertThat(put.status()).isEqualTo(401);
			assertThat(put.header("WWW-Authenticate")).startsWith("Basic realm=");
		}
	}

	@Test
	void readersReadWritersWriteOthersAreForbidden() throws Exception {
		String key = key("roles");
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.reader()), entry(5, 10)).status())
				.isEqualTo(403);
			assertThat(http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.plain()), entry(5, 10)).status())
				.isEqualTo(403);
			assertThat(http.exchange("GET", "/cache/" + key, headers(CacheTestUsers.plain()), null).status())
				.isEqualTo(403);
			assertThat(http.exchange("GET", "/cache/" + key, headers(CacheTestUsers.reader()), null).status())
				.isEqualTo(404);
			assertThat(http
				.exchange("PUT", "/cache/" + key,
						headers("Authorization: " + RawHttp.basic(CacheTestUsers.ADMIN, CacheTestUsers.ADMIN_PASSWORD)),
						entry(5, 10))
				.status()).isEqualTo(201);
			assertThat(http.exchange("GET", "/cache/" + key, headers(CacheTestUsers.reader()), null).body())
				.isEqualTo(entry(5, 10));
		}
	}

	@Test
	void oversizedEntriesAreRefusedAndNothingIsStored() throws Exception {
		String announced = key("too-large-announced");
		String chunked = key("too-large-chunked");
		try (RawHttp http = RawHttp.open(this.port)) {
			Response response = http.exchange("PUT", "/cache/" + announced, gradlePut(), entry(6, MAX_ENTRY + 1));
			assertThat(response.status()).isEqualTo(413);
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			http.sendHead("PUT", "/cache/" + chunked, gradlePut("Transfer-Encoding: chunked"), -1);
			byte[] piece = entry(7, 64 * 1024);
			String size = Integer.toHexString(piece.length) + "\r\n";
			Response response = null;
			for (int sent = 0; sent <= MAX_ENTRY && response == null; sent += piece.length) {
				try {
					http.send(size.getBytes(StandardCharsets.US_ASCII));
					http.send(piece);
					http.send("\r\n".getBytes(StandardCharsets.US_ASCII));
				}
				catch (java.io.IOException closed) {
					break;
				}
				response = http.readWithin(Duration.ofMillis(50));
			}
			if (response == null) {
				response = http.readWithin(Duration.ofSeconds(20));
			}
			assertThat(response).isNotNull();
			assertThat(response.status()).isEqualTo(413);
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("GET", "/cache/" + announced, gradleGet(CacheTestUsers.reader()), null).status())
				.isEqualTo(404);
			assertThat(http.exchange("GET", "/cache/" + chunked, gradleGet(CacheTestUsers.reader()), null).status())
				.isEqualTo(404);
			String exact = key("exactly-the-limit");
			assertThat(http.exchange("PUT", "/cache/" + exact, gradlePut(), entry(8, MAX_ENTRY)).status())
				.isEqualTo(201);
			assertThat(http.exchange("GET", "/cache/" + exact, gradleGet(CacheTestUsers.reader()), null).body())
				.isEqualTo(entry(8, MAX_ENTRY));
		}
		assertThat(this.meters.get("wharf.buildcache.rejections").tag("reason", "too-large").counter().count())
			.isGreaterThanOrEqualTo(2);
	}

	@Test
	void mavenKeysHaveSeveralNames() throws Exception {
		String prefix = "/cache/v1.1/org.example/demo/5f3c0a1b2c3d4e5f/";
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http
				.exchange("PUT", prefix + "buildinfo.xml", headers(CacheTestUsers.writer()),
						"<build/>".getBytes(StandardCharsets.UTF_8))
				.status()).isEqualTo(201);
			assertThat(http
				.exchange("PUT", prefix + "demo-1.0-sources.jar", headers(CacheTestUsers.writer()), entry(9, 5000))
				.status()).isEqualTo(201);
			assertThat(http.exchange("GET", prefix + "buildinfo.xml", headers(CacheTestUsers.reader()), null).text())
				.isEqualTo("<build/>");
			assertThat(http.exchange("GET", prefix + "demo-1.0-sources.jar", headers(CacheTestUsers.reader()), null)
				.body()).isEqualTo(entry(9, 5000));
			// A key's folder is not an entry.
			assertThat(http.exchange("GET", "/cache/v1.1/org.example/demo", headers(CacheTestUsers.reader()), null)
				.status()).isEqualTo(404);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "/cache/..%2fsecret", "/cache/x/..%2f..%2fsecret", "/cache/%2e%2e/secret",
			"/cache/x/../secret", "/cache/x/%2e%2e/secret", "/cache/a//b", "/cache/.wharf-index",
			"/cache/x/.wharf-tmp-1", "/cache/a%00b", "/cache/a%5cb", "/cache/a%5c..%5csecret",
			"/cache/%c0%ae%c0%ae/secret", "/cache/%ff", "/cache/a%20b", "/cache/caf%C3%A9", "/cache/abc/",
			"/cache//abc", "/cache/a%2fb", "/cache/%252e%252e/secret" })
	void badKeysAreRefused(String target) throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http
				.exchange("PUT", "/cache/secret", headers(CacheTestUsers.writer()),
						"canary".getBytes(StandardCharsets.UTF_8))
				.status()).isEqualTo(201);
			Response get = http.exchange("GET", target, headers(CacheTestUsers.admin()), null);
			assertThat(get.status()).isEqualTo(400);
			assertThat(get.text()).doesNotContain("canary");
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			Response put = http.exchange("PUT", target, headers(CacheTestUsers.admin()),
					"poison".getBytes(StandardCharsets.UTF_8));
			assertThat(put.status()).isEqualTo(400);
		}
	}

	@Test
	void rawBytesThatAreNoUriAreRefused() throws Exception {
		for (byte[] target : List.of(new byte[] { '/', 'c', 'a', 'c', 'h', 'e', '/', (byte) 0xc0, (byte) 0xae },
				new byte[] { '/', 'c', 'a', 'c', 'h', 'e', '/', 'a', '\\', 'b' },
				new byte[] { '/', 'c', 'a', 'c', 'h', 'e', '/', 'a', 0x01, 'b' })) {
			try (RawHttp http = RawHttp.open(this.port)) {
				byte[] start = "GET ".getBytes(StandardCharsets.US_ASCII);
				byte[] end = (" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + CacheTestUsers.admin() + "\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII);
				byte[] request = new byte[start.length + target.length + end.length];
				System.arraycopy(start, 0, request, 0, start.length);
				System.arraycopy(target, 0, request, start.length, target.length);
				System.arraycopy(end, 0, request, start.length + target.length, end.length);
				http.send(request);
				Response response = http.read();
				assertThat(response.status()).isEqualTo(400);
			}
		}
	}

	@Test
	void onlyGetHeadAndPutAreAllowed() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			for (String method : List.of("DELETE", "POST", "PATCH")) {
				Response response = http.exchange(method, "/cache/" + key("m"), headers(CacheTestUsers.writer()),
						new byte[0]);
				assertThat(response.status()).isEqualTo(405);
				assertThat(response.header("Allow")).contains("GET", "HEAD", "PUT");
			}
		}
	}

	@Test
	void theBasePathAnswersHealthChecksWithoutCredentials() throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			for (String target : List.of("/cache", "/cache/")) {
				Response health = http.exchange("GET", target, headers(), null);
				assertThat(health.status()).isEqualTo(200);
				assertThat(health.text()).isEqualTo("{\"status\":\"UP\"}");
			}
			assertThat(http.exchange("GET", "/cachex/" + key("h"), headers(), null).status()).isEqualTo(404);
		}
	}

	@Test
	void fiftyConcurrentPutsOfOneKeyLeaveOneCompleteEntry() throws Exception {
		String key = key("contended");
		int writers = 50;
		List<byte[]> bodies = new ArrayList<>();
		for (int i = 0; i < writers; i++) {
			bodies.add(entry(100 + i, 100_000));
		}
		ExecutorService pool = Executors.newFixedThreadPool(writers);
		try {
			List<Callable<Integer>> puts = new ArrayList<>();
			for (byte[] body : bodies) {
				puts.add(() -> {
					try (RawHttp http = RawHttp.open(this.port)) {
						return http.exchange("PUT", "/cache/" + key, gradlePut(), body).status();
					}
				});
			}
			for (Future<Integer> status : pool.invokeAll(puts)) {
				assertThat(status.get()).isEqualTo(201);
			}
		}
		finally {
			pool.shutdownNow();
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			byte[] stored = http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null).body();
			assertThat(bodies).anySatisfy(body -> assertThat(body).isEqualTo(stored));
		}
	}

	@Test
	void hitsMissesPutsAndBytesAreCounted() throws Exception {
		double hits = count("wharf.buildcache.hits");
		double misses = count("wharf.buildcache.misses");
		double puts = count("wharf.buildcache.puts");
		String key = key("counted");
		try (RawHttp http = RawHttp.open(this.port)) {
			http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null);
			http.exchange("PUT", "/cache/" + key, gradlePut(), entry(10, 1234));
			http.exchange("GET", "/cache/" + key, gradleGet(CacheTestUsers.reader()), null);
		}
		assertThat(count("wharf.buildcache.misses")).isEqualTo(misses + 1);
		assertThat(count("wharf.buildcache.puts")).isEqualTo(puts + 1);
		assertThat(count("wharf.buildcache.hits")).isEqualTo(hits + 1);
		assertThat(this.meters.get("wharf.buildcache.bytes")
			.tag("direction", "in")
			.tag("backend", "memory")
			.counter()
			.count()).isGreaterThanOrEqualTo(1234);
		assertThat(this.meters.get("wharf.buildcache.entries").gauge().value()).isPositive();
	}

	private double count(String name) {
		return this.meters.get(name).tag("mount", "data").counter().count();
	}

}
