package dev.wharf.app.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.JvmTempFolder;
import dev.wharf.core.testsupport.RawHttp;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole application (every module on) on a random port, shared by the hostile-client
 * tests (one context, started once), with the slow-client timeouts short so tests see
 * them fire: head 2 s, body 2 s, idle 3 s. One local mount {@code data}: the file
 * manager's, the build cache's (entries in its reserved folder) and a static site's
 * ({@code /static/} serves {@code data/public}). Uploads and cache entries are limited to
 * {@value #MAX_BODY} bytes. Users: alice and dave (file manager), ci (build cache reader
 * and writer).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
abstract class HostileServerTestBase {

	static final int MAX_BODY = 1024 * 1024;

	static final Duration HEAD_TIMEOUT = Duration.ofSeconds(2);

	static final Duration BODY_TIMEOUT = Duration.ofSeconds(2);

	static final Duration IDLE_TIMEOUT = Duration.ofSeconds(3);

	static final String ALICE_PASSWORD = "alice-" + UUID.randomUUID();

	static final String DAVE_PASSWORD = "dave-" + UUID.randomUUID();

	static final String CI_PASSWORD = "ci-" + UUID.randomUUID();

	/** This JVM's server folder: {@code data/} (the mount) and {@code state/}. */
	static final Path ROOT = createRoot();

	static final Path DATA = ROOT.resolve("data");

	private static @Nullable String aliceSession;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void hostileServer(DynamicPropertyRegistry registry) {
		registry.add("wharf.state-dir", () -> ROOT.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> DATA.toString());
		registry.add("wharf.ftp.port", () -> "0");
		registry.add("wharf.ftp.passive-ports", () -> "0");
		user(registry, 0, "alice", ALICE_PASSWORD, "user");
		user(registry, 1, "dave", DAVE_PASSWORD, "user");
		user(registry, 2, "ci", CI_PASSWORD, "cache-reader,cache-writer");
		registry.add("wharf.filemanager.max-upload-size", () -> MAX_BODY + "B");
		registry.add("wharf.buildcache.max-entry-size", () -> MAX_BODY + "B");
		registry.add("wharf.buildcache.mount", () -> "data");
		registry.add("wharf.static.sites[0].prefix", () -> "/static/");
		registry.add("wharf.static.sites[0].mount", () -> "data");
		registry.add("wharf.static.sites[0].root", () -> "/public");
		registry.add("wharf.http.header-timeout", () -> HEAD_TIMEOUT.toMillis() + "ms");
		registry.add("wharf.http.body-timeout", () -> BODY_TIMEOUT.toMillis() + "ms");
		registry.add("server.netty.idle-timeout", () -> IDLE_TIMEOUT.toMillis() + "ms");
	}

	static void user(DynamicPropertyRegistry registry, int index, String name, String password, String roles) {
		String prefix = "wharf.security.users[" + index + "].";
		String hash = PasswordHashing.hash(password);
		registry.add(prefix + "name", () -> name);
		registry.add(prefix + "password", () -> hash);
		registry.add(prefix + "roles", () -> roles);
		registry.add(prefix + "mounts.data", () -> "rw");
	}

	/** Logs in over the API and gives the {@code Cookie} header's value. */
	String login(String user, String password) throws IOException {
		RawHttp.Response answer = tryLogin(user, password, null);
		assertThat(answer.status()).as(answer.text()).isEqualTo(200);
		return cookie(answer);
	}

	/**
	 * Tries a login over the API from a loopback address ({@code null}: 127.0.0.1) and
	 * gives the answer.
	 */
	RawHttp.Response tryLogin(String user, String password, @Nullable String from) throws IOException {
		String json = "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}";
		try (RawHttp wire = RawHttp.open(this.port, from)) {
			return wire
				.send("POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
						+ json.length() + "\r\nConnection: close\r\n\r\n" + json)
				.read();
		}
	}

	/** The {@code Cookie} header's value for the session a login answer started. */
	static String cookie(RawHttp.Response login) {
		String setCookie = login.header("set-cookie");
		return setCookie.substring(0, setCookie.indexOf(';'));
	}

	String alice() throws IOException {
		return login("alice", ALICE_PASSWORD);
	}

	/**
	 * One session of alice's for the tests that need one and never end it, so they do not
	 * log in per case.
	 */
	String aliceSession() throws IOException {
		synchronized (HostileServerTestBase.class) {
			if (aliceSession == null) {
				aliceSession = alice();
			}
			return aliceSession;
		}
	}

	static String ciAuthorization() {
		return "Basic " + Base64.getEncoder().encodeToString(("ci:" + CI_PASSWORD).getBytes());
	}

	/** A fresh name, so tests sharing the server do not collide. */
	static String unique(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** Asserts that a normal request on a new connection is served. */
	void serverStillServes() throws IOException {
		RawHttp.Response health = RawHttp.exchange(this.port,
				"GET /actuator/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(health.status()).isEqualTo(200);
		assertThat(health.text()).contains("\"UP\"");
	}

	/**
	 * Every file under the mount, Wharf's own folders included, as paths relative to it.
	 */
	static List<String> filesInMount() throws IOException {
		try (Stream<Path> files = Files.walk(DATA)) {
			return files.filter(Files::isRegularFile).map(file -> DATA.relativize(file).toString()).toList();
		}
	}

	/**
	 * Waits until no temporary file of an abandoned write is left in the mount, then
	 * asserts none of the names is there.
	 */
	static void nothingStoredOrHalfWritten(String... names) {
		await().atMost(RawHttp.PATIENCE)
			.untilAsserted(() -> assertThat(filesInMount()).noneMatch(file -> file.contains(".wharf-tmp")));
		for (String name : names) {
			try {
				assertThat(filesInMount()).noneMatch(file -> file.contains(name));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	private static Path createRoot() {
		Path root = JvmTempFolder.create("wharf-hostile-tests");
		try {
			Files.createDirectories(root.resolve("data").resolve("public"));
			Files.writeString(root.resolve("data").resolve("public").resolve("hello.txt"), "hello from the site");
			return root;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
