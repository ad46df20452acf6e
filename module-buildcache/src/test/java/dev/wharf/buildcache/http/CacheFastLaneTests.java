package dev.wharf.buildcache.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.autoconfigure.WebServerAutoConfiguration;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fast lane answers GET and HEAD of entries on the connection itself exactly as the
 * regular route does (which a request with {@code Connection: close} takes), with the
 * same checks and meters, never reorders responses, and leaves idle and stalled
 * connections to the same timeouts.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class CacheFastLaneTests {

	private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * Far more than the socket buffers on both sides hold, so a client that stops reading
	 * stalls the server.
	 */
	private static final int BIG = 24 * 1024 * 1024;

	private static final byte[] SMALL_ENTRY = StorageTestSupport.randomBytes(1, 0, 128);

	private static final byte[] LARGE_ENTRY = StorageTestSupport.randomBytes(2, 0, 200_000);

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@Autowired
	CacheFastLane lane;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
		CacheTestUsers.register(registry);
		registry.add("wharf.buildcache.max-entry-size", () -> BIG + "B");
		registry.add("server.netty.idle-timeout", () -> IDLE_TIMEOUT.toMillis() + "ms");
		registry.add("wharf.http.write-timeout", () -> "2s");
	}

	private void store(String key, byte[] entry) throws IOException {
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.writer()), entry).status())
				.isEqualTo(201);
		}
	}

	@Test
	void answersAsTheRegularRouteDoes() throws IOException {
		store("lane-small", SMALL_ENTRY);
		store("lane-large", LARGE_ENTRY);
		String stranger = "Authorization: " + RawHttp.basic("stranger", "wrong");
		for (String method : List.of("GET", "HEAD")) {
			for (String target : List.of("/cache/lane-small", "/cache/lane-large", "/cache/lane-missing",
					"/cache/bad%2Fkey")) {
				List<String> callers = new ArrayList<>(
						List.of(CacheTestUsers.reader(), CacheTestUsers.plain(), "X-Nobody: here"));
				// Three failed logins: fewer than the throttle lets pass.
				if (target.endsWith("small") && method.equals("GET")) {
					callers.add(stranger);
				}
				for (String caller : callers) {
					List<String> keptAlive = headers(caller, "Connection: Keep-Alive");
					List<String> closing = headers(caller, "Connection: close");
					long before = this.lane.answered();
					Response fast;
					try (RawHttp http = RawHttp.open(this.port)) {
						fast = http.exchange(method, target, keptAlive, null);
						// The connection serves the next request too.
						assertThat(http.exchange(method, target, keptAlive, null).status()).isEqualTo(fast.status());
					}
					assertThat(this.lane.answered()).as("fast lane").isEqualTo(before + 2);
					Response regular;
					try (RawHttp http = RawHttp.open(this.port)) {
						regular = http.exchange(method, target, closing, null);
					}
					assertThat(this.lane.answered()).as("regular route").isEqualTo(before + 2);
					String what = method + " " + target + " " + caller;
					assertThat(fast.status()).as(what).isEqualTo(regular.status());
					assertThat(fast.header("Connection")).as(what).isEqualTo("keep-alive");
					assertThat(withoutConnection(fast.headers())).as(what)
						.isEqualTo(withoutConnection(regular.headers()));
					assertThat(fast.body()).as(what).isEqualTo(regular.body());
				}
			}
		}
		try (RawHttp http = RawHttp.open(this.port)) {
			assertThat(http.exchange("GET", "/cache/lane-small", CacheTestUsers.reader()).body())
				.isEqualTo(SMALL_ENTRY);
			assertThat(http.exchange("GET", "/cache/lane-large", CacheTestUsers.reader()).body())
				.isEqualTo(LARGE_ENTRY);
			assertThat(http.exchange("GET", "/cache/lane-missing", CacheTestUsers.reader()).status()).isEqualTo(404);
			assertThat(http.exchange("GET", "/cache/lane-small", CacheTestUsers.plain()).status()).isEqualTo(403);
			Response anonymous = http.exchange("GET", "/cache/lane-small");
			assertThat(anonymous.status()).isEqualTo(401);
			assertThat(anonymous.header("WWW-Authenticate")).startsWith("Basic realm=");
		}
	}

	@Test
	void hitsMissesBytesAndRefusalsAreCounted() throws IOException {
		store("lane-counted", SMALL_ENTRY);
		double hits = count("wharf.buildcache.hits");
		double misses = count("wharf.buildcache.misses");
		double bytesOut = this.meters.get("wharf.buildcache.bytes").tag("direction", "out").counter().count();
		Counter forbidden = this.meters.counter("wharf.buildcache.rejections", "mount", "data", "backend", "memory",
				"reason", "forbidden");
		double refused = forbidden.count();
		long before = this.lane.answered();
		try (RawHttp http = RawHttp.open(this.port)) {
			http.exchange("GET", "/cache/lane-counted", CacheTestUsers.reader());
			http.exchange("GET", "/cache/lane-uncounted", CacheTestUsers.reader());
			http.exchange("GET", "/cache/lane-counted", CacheTestUsers.plain());
		}
		assertThat(this.lane.answered()).isEqualTo(before + 3);
		assertThat(count("wharf.buildcache.hits")).isEqualTo(hits + 1);
		assertThat(count("wharf.buildcache.misses")).isEqualTo(misses + 1);
		assertThat(this.meters.get("wharf.buildcache.bytes").tag("direction", "out").counter().count())
			.isEqualTo(bytesOut + SMALL_ENTRY.length);
		assertThat(forbidden.count()).isEqualTo(refused + 1);
	}

	@Test
	void pipelinedRequestsAreAnsweredInOrder() throws IOException {
		store("lane-first", SMALL_ENTRY);
		// A wrong password is checked on a worker, so the lane's first answer comes late;
		// the PUT behind it goes to Reactor Netty only after it, and the GET after that
		// only once the PUT is answered.
		String wrong = "Authorization: " + RawHttp.basic("ghost", "not-remembered");
		String requests = "GET /cache/lane-first HTTP/1.1\r\nHost: x\r\n" + wrong + "\r\n\r\n"
				+ "PUT /cache/lane-second HTTP/1.1\r\nHost: x\r\n" + CacheTestUsers.writer()
				+ "\r\nContent-Length: 6\r\n\r\nsecond" + "GET /cache/lane-second HTTP/1.1\r\nHost: x\r\n"
				+ CacheTestUsers.reader() + "\r\n\r\n" + "GET /cache/lane-first HTTP/1.1\r\nHost: x\r\n"
				+ CacheTestUsers.reader() + "\r\n\r\n" + "GET /cache/lane-third HTTP/1.1\r\nHost: x\r\n"
				+ CacheTestUsers.reader() + "\r\n\r\n";
		long before = this.lane.answered();
		try (RawHttp http = RawHttp.open(this.port)) {
			http.send(requests.getBytes(StandardCharsets.US_ASCII));
			assertThat(http.read().status()).isEqualTo(401);
			assertThat(http.read().status()).isEqualTo(201);
			assertThat(http.read().text()).isEqualTo("second");
			assertThat(http.read().body()).isEqualTo(SMALL_ENTRY);
			assertThat(http.read().status()).isEqualTo(404);
			// Nothing was left pending: the connection goes on.
			assertThat(http.exchange("GET", "/cache/lane-second", CacheTestUsers.reader()).text()).isEqualTo("second");
		}
		assertThat(this.lane.answered()).as("all but the PUT").isGreaterThanOrEqualTo(before + 2);
	}

	@Test
	void aLockedOutUserIsRefusedEvenWithTheRightPassword() throws IOException {
		String right = CacheTestUsers.admin();
		String wrong = "Authorization: " + RawHttp.basic(CacheTestUsers.ADMIN, "guess");
		try (RawHttp http = RawHttp.open(this.port)) {
			// Remembered from here on.
			assertThat(http.exchange("GET", "/cache/lane-locked", right).status()).isEqualTo(404);
			int status = 0;
			for (int i = 0; i < 20 && status != 429; i++) {
				status = http.exchange("GET", "/cache/lane-locked", wrong).status();
			}
			assertThat(status).isEqualTo(429);
			long before = this.lane.answered();
			Response locked = http.exchange("GET", "/cache/lane-locked", right);
			assertThat(this.lane.answered()).isEqualTo(before + 1);
			assertThat(locked.status()).isEqualTo(429);
			assertThat(locked.header("Retry-After")).isNotNull();
		}
	}

	@Test
	void anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() throws IOException {
		store("lane-idle", SMALL_ENTRY);
		try (RawHttp http = RawHttp.open(this.port)) {
			long before = this.lane.answered();
			assertThat(http.exchange("GET", "/cache/lane-idle", CacheTestUsers.reader()).body()).isEqualTo(SMALL_ENTRY);
			assertThat(this.lane.answered()).isEqualTo(before + 1);
			long idleSince = System.nanoTime();
			assertThat(http.closedWithin(IDLE_TIMEOUT.multipliedBy(10))).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - idleSince))
				.isGreaterThanOrEqualTo(IDLE_TIMEOUT.minusMillis(100));
		}
	}

	@Test
	void aClientThatStopsReadingIsCutOffAfterTheWriteTimeout() throws IOException {
		store("lane-big", StorageTestSupport.randomBytes(3, 0, BIG));
		double before = stalled();
		long answered = this.lane.answered();
		try (RawHttp http = RawHttp.openWithReceiveBuffer(this.port, 4096)) {
			http.send("GET /cache/lane-big HTTP/1.1\r\nHost: x\r\n" + CacheTestUsers.reader() + "\r\n\r\n");
			await().atMost(RawHttp.PATIENCE).until(() -> stalled() > before);
			assertThat(http.drain()).as("the entry was cut").isLessThan(BIG);
		}
		assertThat(this.lane.answered()).isEqualTo(answered + 1);
	}

	@Test
	void aSlowButMovingReaderGetsABigEntryWholeHoweverLongItTakes() throws IOException {
		byte[] entry = StorageTestSupport.randomBytes(4, 0, BIG);
		store("lane-slow", entry);
		double before = stalled();
		long answered = this.lane.answered();
		long start = System.nanoTime();
		try (RawHttp http = RawHttp.openWithReceiveBuffer(this.port, 1024 * 1024)) {
			http.send("GET /cache/lane-slow HTTP/1.1\r\nHost: x\r\n" + CacheTestUsers.reader() + "\r\n\r\n");
			Response head = http.readHead();
			assertThat(head.contentLength()).isEqualTo(BIG);
			// 256 KB, then a pause: moving within every write timeout, and the client
			// sends nothing for far longer than the idle timeout.
			http.readSlowly(BIG, 256 * 1024, Duration.ofMillis(100));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("slower than the idle timeout")
				.isGreaterThan(IDLE_TIMEOUT.multipliedBy(2));
		}
		assertThat(this.lane.answered()).isEqualTo(answered + 1);
		assertThat(stalled()).isEqualTo(before);
	}

	private double stalled() {
		Counter counter = this.meters.find(WebServerAutoConfiguration.STALLED_RESPONSES).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private double count(String name) {
		return this.meters.get(name).tag("mount", "data").counter().count();
	}

	private static Map<String, List<String>> withoutConnection(Map<String, List<String>> headers) {
		Map<String, List<String>> rest = new LinkedHashMap<>(headers);
		rest.keySet().removeIf(name -> name.equalsIgnoreCase("connection"));
		return rest;
	}

}
