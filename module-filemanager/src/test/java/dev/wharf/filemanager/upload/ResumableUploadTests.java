package dev.wharf.filemanager.upload;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Resumable uploads (tus 1.0.0 with the creation, checksum, expiration and termination
 * extensions), over real HTTP.
 */
class ResumableUploadTests extends FileManagerTestBase {

	private static final byte[] FILE = StorageTestSupport.randomBytes(11, 0, 5 * SEGMENT + 123);

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private String create(String path, long length) {
		Answer created = this.api.post("/api/files/upload?path=" + path)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", Long.toString(length))
			.header("Upload-Metadata", "filename ZmlsZS5iaW4=")
			.send();
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		assertThat(created.header("Tus-Resumable")).isEqualTo("1.0.0");
		assertThat(created.header("Upload-Expires")).isNotNull();
		return created.header("Location");
	}

	private Answer patch(String location, long offset, byte[] bytes) {
		return this.api.tusPatch(location, offset).browser(this.cookie).body(bytes).send();
	}

	private long offset(String location) {
		Answer head = this.api.request("HEAD", location).browser(this.cookie).header("Tus-Resumable", "1.0.0").send();
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.header("Cache-Control")).isEqualTo("no-store");
		return Long.parseLong(head.header("Upload-Offset"));
	}

	@Test
	void optionsTellWhatIsSupportedWithoutALogin() {
		Answer options = this.api.request("OPTIONS", "/api/files/upload").send();
		assertThat(options.status()).isEqualTo(204);
		assertThat(options.header("Tus-Version")).isEqualTo("1.0.0");
		assertThat(options.header("Tus-Extension")).contains("creation", "checksum", "termination", "expiration");
		assertThat(options.header("Tus-Checksum-Algorithm")).contains("sha1");
		assertThat(options.header("Tus-Max-Size")).isEqualTo(Integer.toString(MAX_UPLOAD));
	}

	@Test
	void anUploadInPiecesAppearsOnlyWhenComplete() throws Exception {
		String path = "/data/" + unique("resumable") + ".bin";
		String location = create(path, FILE.length);
		assertThat(location).startsWith("/api/files/upload/data/");
		Answer head = this.api.request("HEAD", location).browser(this.cookie).header("Tus-Resumable", "1.0.0").send();
		assertThat(head.header("Upload-Length")).isEqualTo(Integer.toString(FILE.length));
		assertThat(head.header("Upload-Metadata")).isEqualTo("filename ZmlsZS5iaW4=");
		assertThat(offset(location)).isZero();
		Answer first = patch(location, 0, Arrays.copyOf(FILE, 100_000));
		assertThat(first.status()).isEqualTo(204);
		assertThat(first.header("Upload-Offset")).isEqualTo("100000");
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().status()).isEqualTo(404);
		assertThat(this.api.get("/api/files/ls?path=/data/").browser(this.cookie).send().text())
			.doesNotContain(".wharf");
		Answer last = patch(location, 100_000, Arrays.copyOfRange(FILE, 100_000, FILE.length));
		assertThat(last.status()).isEqualTo(204);
		assertThat(last.header("Upload-Offset")).isEqualTo(Integer.toString(FILE.length));
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().body()).isEqualTo(FILE);
		// Done: a client that lost that answer asks again and learns the upload is
		// complete; sending the last
		// piece again changes nothing.
		Answer done = this.api.request("HEAD", location).browser(this.cookie).header("Tus-Resumable", "1.0.0").send();
		assertThat(done.status()).isEqualTo(200);
		assertThat(done.header("Upload-Offset")).isEqualTo(Integer.toString(FILE.length));
		Answer again = patch(location, 100_000, Arrays.copyOfRange(FILE, 100_000, FILE.length));
		assertThat(again.status()).isEqualTo(409);
		assertThat(again.header("Upload-Offset")).isEqualTo(Integer.toString(FILE.length));
		assertThat(patch(location, FILE.length, new byte[0]).status()).isEqualTo(204);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().body()).isEqualTo(FILE);
		String id = location.substring(location.lastIndexOf('/') + 1);
		try (var left = Files.list(ROOT.resolve("data").resolve(".wharf").resolve("uploads").resolve(id))) {
			assertThat(left.map(file -> file.getFileName().toString())).containsExactlyInAnyOrder("info", "done");
		}
	}

	@Test
	void aDroppedConnectionKeepsWhatArrivedAndTheUploadResumes() throws Exception {
		String path = "/data/" + unique("dropped") + ".bin";
		String location = create(path, FILE.length);
		int sent = 3 * SEGMENT + 1000;
		String head = "PATCH " + location + " HTTP/1.1\r\nHost: x\r\nCookie: " + this.cookie
				+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
				+ "Content-Type: application/offset+octet-stream\r\nContent-Length: " + FILE.length + "\r\n\r\n";
		byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
		byte[] request = Arrays.copyOf(headBytes, headBytes.length + sent);
		System.arraycopy(FILE, 0, request, headBytes.length, sent);
		try (RawHttp http = RawHttp.open(this.port)) {
			http.send(request);
			// While the transfer hangs, what arrived is stored in segments and counted.
			await().atMost(Duration.ofSeconds(30)).until(() -> offset(location) >= 2L * SEGMENT);
		}
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().status()).isEqualTo(404);
		// The connection dropped: resume from where the server says, once it has let go
		// of the broken request
		// (until then it answers 409, as for any offset it cannot know).
		Answer resumed = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
			long offset = offset(location);
			assertThat(offset).isGreaterThanOrEqualTo(2L * SEGMENT).isLessThanOrEqualTo(sent);
			return patch(location, offset, Arrays.copyOfRange(FILE, (int) offset, FILE.length));
		}, answer -> answer.status() != 409);
		assertThat(resumed.status()).as(resumed.text()).isEqualTo(204);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().body()).isEqualTo(FILE);
	}

	@Test
	void aSecondPatchWhileOneIsReceivingGets409AndTheFirstCompletesTheFile() throws Exception {
		String path = "/data/" + unique("contended") + ".bin";
		String location = create(path, FILE.length);
		int sent = 2 * SEGMENT;
		String head = "PATCH " + location + " HTTP/1.1\r\nHost: x\r\nCookie: " + this.cookie
				+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
				+ "Content-Type: application/offset+octet-stream\r\nContent-Length: " + FILE.length + "\r\n\r\n";
		try (var socket = new java.net.Socket("127.0.0.1", this.port)) {
			socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().write(FILE, 0, sent);
			socket.getOutputStream().flush();
			await().atMost(Duration.ofSeconds(30)).until(() -> offset(location) >= SEGMENT);
			Answer second = patch(location, 0, FILE);
			assertThat(second.status()).as(second.text()).isEqualTo(409);
			assertThat(second.text()).contains("another connection");
			socket.getOutputStream().write(FILE, sent, FILE.length - sent);
			socket.getOutputStream().flush();
			String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
			assertThat(status).isEqualTo("HTTP/1.1 204");
		}
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().body()).isEqualTo(FILE);
	}

	@Test
	void patchesOneRightAfterAnotherNeverFindTheLockOfTheOneBefore() {
		String path = "/scratch/" + unique("quick");
		int pieces = 40;
		String location = create(path, pieces);
		for (int i = 0; i < pieces; i++) {
			Answer piece = patch(location, i, new byte[] { (byte) ('a' + i % 26) });
			assertThat(piece.status()).as("piece %d: %s", i, piece.text()).isEqualTo(204);
		}
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().body()).hasSize(pieces);
	}

	@Test
	void checksumsAreVerifiedAndAMismatchKeepsNothing() throws Exception {
		String path = "/scratch/" + unique("checked");
		String location = create(path, 10);
		byte[] good = "0123456789".getBytes(StandardCharsets.US_ASCII);
		String wrong = Base64.getEncoder()
			.encodeToString(MessageDigest.getInstance("SHA-1").digest("other".getBytes()));
		Answer mismatch = this.api.tusPatch(location, 0)
			.browser(this.cookie)
			.header("Upload-Checksum", "sha1 " + wrong)
			.body(good)
			.send();
		assertThat(mismatch.status()).isEqualTo(460);
		assertThat(offset(location)).isZero();
		String right = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(good));
		Answer matched = this.api.tusPatch(location, 0)
			.browser(this.cookie)
			.header("Upload-Checksum", "sha256 " + right)
			.body(good)
			.send();
		assertThat(matched.status()).isEqualTo(204);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().text())
			.isEqualTo("0123456789");
		Answer unknown = this.api.tusPatch(create("/scratch/" + unique("x"), 1), 0)
			.browser(this.cookie)
			.header("Upload-Checksum", "crc99 AAAA")
			.body("x")
			.send();
		assertThat(unknown.status()).isEqualTo(400);
	}

	@Test
	void protocolErrorsAreRefused() {
		String location = create("/scratch/" + unique("errors"), 10);
		assertThat(patch(location, 5, "x".getBytes()).status()).isEqualTo(409);
		assertThat(patch(location, 0, "too long, past the length".getBytes()).status()).isEqualTo(413);
		assertThat(this.api.request("PATCH", location)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Content-Type", "application/octet-stream")
			.header("Upload-Offset", "0")
			.body("x")
			.send()
			.status()).isEqualTo(415);
		Answer noVersion = this.api.request("HEAD", location).browser(this.cookie).send();
		assertThat(noVersion.status()).isEqualTo(412);
		assertThat(noVersion.header("Tus-Version")).isEqualTo("1.0.0");
		assertThat(this.api.post("/api/files/upload?path=/scratch/x")
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.send()
			.status()).isEqualTo(400);
		assertThat(this.api.post("/api/files/upload?path=/scratch/x")
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", Integer.toString(MAX_UPLOAD + 1))
			.send()
			.status()).isEqualTo(413);
		assertThat(this.api.post("/api/files/upload?path=/scratch/" + unique("no") + "/x")
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", "1")
			.send()
			.status()).isEqualTo(404);
		assertThat(this.api.post("/api/files/upload?path=/ro/x")
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", "1")
			.send()
			.status()).isEqualTo(403);
		assertThat(offset(location)).isZero();
		assertThat(this.api.request("HEAD", "/api/files/upload/scratch/not-an-id")
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.send()
			.status()).isEqualTo(404);
	}

	@Test
	void anUploadBelongsToItsCreatorAndCanBeAbandoned() throws Exception {
		String location = create("/data/" + unique("mine"), 10);
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.request("HEAD", location).browser(bob).header("Tus-Resumable", "1.0.0").send().status())
			.isEqualTo(404);
		String id = location.substring(location.lastIndexOf('/') + 1);
		Path folder = ROOT.resolve("data").resolve(".wharf").resolve("uploads").resolve(id);
		assertThat(folder.resolve("info")).exists();
		assertThat(this.api.request("DELETE", location)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.send()
			.status()).isEqualTo(204);
		assertThat(Files.exists(folder)).isFalse();
		assertThat(this.api.request("HEAD", location)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.send()
			.status()).isEqualTo(404);
	}

	@Test
	void anEmptyFileCanBeUploaded() {
		String path = "/scratch/" + unique("empty");
		String location = create(path, 0);
		assertThat(patch(location, 0, new byte[0]).status()).isEqualTo(204);
		Answer file = this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send();
		assertThat(file.status()).isEqualTo(200);
		assertThat(file.body()).isEmpty();
	}

}
