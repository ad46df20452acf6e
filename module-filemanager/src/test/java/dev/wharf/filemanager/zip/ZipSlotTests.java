package dev.wharf.filemanager.zip;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.JvmTempFolder;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestApplication;
import dev.wharf.filemanager.testsupport.Zips;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Zip slots against clients that stop reading, over real sockets: a zip holds its slot
 * while it streams, so before the HTTP write timeout two connections that never read kept
 * every other user's zip at 503 for as long as they stayed open. Now a connection whose
 * response bytes stop moving for {@code wharf.http.write-timeout} is closed and its slot
 * given back, one user may hold only half the slots (429 past that), and a slow reader
 * that keeps reading is never cut. Its own server: two zip slots (so one per user), a
 * write timeout of {@value #WRITE_TIMEOUT_SECONDS} s; bob and carol may only read.
 */
@SpringBootTest(classes = FileManagerTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class ZipSlotTests {

	private static final int WRITE_TIMEOUT_SECONDS = 2;

	private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(WRITE_TIMEOUT_SECONDS);

	/**
	 * Several times what the socket buffers hold (a few MB on loopback), stored as it is
	 * (.jpg).
	 */
	private static final int FILE_SIZE = 4 * 1024 * 1024;

	private static final int FILES = 3;

	private static final Path ROOT = createRoot();

	private static final String[] USERS = { "alice", "bob", "carol" };

	@LocalServerPort
	int port;

	private Api api;

	private final Map<String, String> cookies = new HashMap<>();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("wharf.state-dir", () -> ROOT.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> ROOT.resolve("data").toString());
		registry.add("wharf.filemanager.max-concurrent-zips", () -> "2");
		registry.add("wharf.http.write-timeout", () -> WRITE_TIMEOUT_SECONDS + "s");
		for (int i = 0; i < USERS.length; i++) {
			String prefix = "wharf.security.users[" + i + "].";
			String name = USERS[i];
			String hash = PasswordHashing.hash(name + "-password");
			String access = (i == 0) ? "rw" : "ro";
			registry.add(prefix + "name", () -> name);
			registry.add(prefix + "password", () -> hash);
			registry.add(prefix + "roles", () -> "user");
			registry.add(prefix + "mounts.data", () -> access);
		}
	}

	@BeforeEach
	void client() {
		this.api = new Api(this.port);
	}

	private String cookie(String user) {
		return this.cookies.computeIfAbsent(user, name -> this.api.login(name, name + "-password"));
	}

	private Answer zip(String user, String folder) {
		return this.api.get("/api/files/zip?path=/data/" + folder).browser(cookie(user)).send();
	}

	@Test
	void aClientThatStopsReadingLosesItsSlotAfterTheWriteTimeout() throws Exception {
		try (RawHttp alice = stall("alice"); RawHttp bob = stall("bob")) {
			long stalledAt = System.nanoTime();
			Answer refused = zip("carol", "small");
			assertThat(refused.status()).as("both slots are held").isEqualTo(503);
			assertThat(refused.header("Retry-After")).isNotNull();
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(250))
				.untilAsserted(() -> assertThat(zip("carol", "small").status()).isEqualTo(200));
			assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).isGreaterThanOrEqualTo(WRITE_TIMEOUT);
			assertThat(Zips.entries(zip("carol", "small").body())).containsOnlyKeys("small/", "small/note.txt");
			// Each stalled user gets 429 while the server still holds their zip: once
			// they get a zip again, the
			// server gave up theirs, with its client still not reading.
			for (String user : new String[] { "alice", "bob" }) {
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(250))
					.untilAsserted(() -> assertThat(zip(user, "small").status()).isEqualTo(200));
			}
			for (RawHttp stalled : new RawHttp[] { alice, bob }) {
				assertThat(stalled.drain()).as("the zip was cut").isLessThan((long) FILE_SIZE * FILES);
			}
		}
	}

	@Test
	void oneUserCannotTakeEverySlot() throws Exception {
		try (RawHttp alice = stall("alice")) {
			Answer second = zip("alice", "small");
			assertThat(second.status()).as("alice holds her share, one of two").isEqualTo(429);
			assertThat(second.header("Retry-After")).isNotNull();
			assertThat(second.message()).contains("zips already");
			Answer bob = zip("bob", "small");
			assertThat(bob.status()).as("the other slot is bob's to take").isEqualTo(200);
			assertThat(Zips.entries(bob.body())).containsOnlyKeys("small/", "small/note.txt");
		}
		// Her connection is gone: the server notices at its next write and gives the slot
		// back.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(zip("alice", "small").status()).isEqualTo(200));
	}

	@Test
	void aSlowButMovingReaderGetsTheWholeZip() throws Exception {
		long start = System.nanoTime();
		byte[] zip;
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.port, 1024 * 1024)) {
			request(reader, "alice", "big");
			// 256 KB, then a pause: far slower than loopback, but moving within every
			// write timeout.
			zip = readChunked(reader.paced(256 * 1024, Duration.ofMillis(100)));
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("slower than the timeout")
			.isGreaterThan(WRITE_TIMEOUT.multipliedBy(2));
		Map<String, byte[]> entries = Zips.entries(zip);
		for (int i = 0; i < FILES; i++) {
			assertThat(entries.get("big/" + i + ".jpg")).isEqualTo(StorageTestSupport.randomBytes(i, 0, FILE_SIZE));
		}
	}

	/** Asks for the big zip as a user, reads the head, and stops reading. */
	private RawHttp stall(String user) throws IOException {
		RawHttp reader = RawHttp.openWithReceiveBuffer(this.port, 64 * 1024);
		request(reader, user, "big");
		return reader;
	}

	/**
	 * Sends the GET of a folder's zip and reads the head, which must say 200 and chunked.
	 */
	private void request(RawHttp reader, String user, String folder) throws IOException {
		Response head = reader
			.send("GET /api/files/zip?path=/data/" + folder + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie(user) + "\r\n"
					+ Api.XRW + ": XmlHttpRequest\r\n\r\n")
			.readHead();
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.header("transfer-encoding")).isEqualToIgnoringCase("chunked");
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			assertThat(b).as("end of a line").isNotNegative();
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	/** A chunked body, read to its last chunk. */
	private static byte[] readChunked(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
			body.write(in.readNBytes(size));
			assertThat(line(in)).isEmpty();
		}
		assertThat(line(in)).isEmpty();
		return body.toByteArray();
	}

	private static Path createRoot() {
		Path root = JvmTempFolder.create("wharf-zip-slot-tests");
		try {
			Path big = Files.createDirectories(root.resolve("data").resolve("big"));
			for (int i = 0; i < FILES; i++) {
				Files.write(big.resolve(i + ".jpg"), StorageTestSupport.randomBytes(i, 0, FILE_SIZE));
			}
			Path small = Files.createDirectories(root.resolve("data").resolve("small"));
			Files.writeString(small.resolve("note.txt"), "small");
			return root;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
