package dev.wharf.filemanager.files;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /api/files/save}, over real HTTP, including bodies cut off mid-way.
 */
class SaveTests extends FileManagerTestBase {

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	@Test
	void storesTheRawBodyAndReplaces() {
		String path = "/data/" + unique("saved") + ".txt";
		assertThat(this.api.post("/api/files/save?path=" + path).browser(this.cookie).body("one").send().text())
			.isEqualTo("{\"status\":\"ok\"}");
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().text()).isEqualTo("one");
		this.api.post("/api/files/save?path=" + path).browser(this.cookie).body("two, longer").send();
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().text())
			.isEqualTo("two, longer");
	}

	@Test
	void ifUnmodifiedSinceRefusesToOverwriteANewerFile() {
		String path = "/scratch/" + unique("guarded");
		this.api.post("/api/files/save?path=" + path).browser(this.cookie).body("mine").send();
		Answer stale = this.api.post("/api/files/save?path=" + path)
			.browser(this.cookie)
			.header("If-Unmodified-Since", "Thu, 01 Jan 2004 00:00:00 GMT")
			.body("theirs")
			.send();
		assertThat(stale.status()).isEqualTo(412);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().text()).isEqualTo("mine");
		Answer fresh = this.api.post("/api/files/save?path=" + path)
			.browser(this.cookie)
			.header("If-Unmodified-Since", "Thu, 01 Jan 2099 00:00:00 GMT")
			.body("theirs")
			.send();
		assertThat(fresh.status()).isEqualTo(200);
	}

	@Test
	void tooLargeIsRefusedAndKeepsNothing() {
		String path = "/scratch/" + unique("large");
		Answer answer = this.api.post("/api/files/save?path=" + path)
			.browser(this.cookie)
			.body(new byte[MAX_UPLOAD + 1])
			.send();
		assertThat(answer.status()).isEqualTo(413);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().status()).isEqualTo(404);
	}

	@Test
	void aChunkedBodyOverTheLimitIsCutAndKeepsNothing() throws Exception {
		String path = "/scratch/" + unique("chunked");
		StringBuilder request = new StringBuilder(
				"POST /api/files/save?path=" + path + " HTTP/1.1\r\nHost: x\r\n" + "Cookie: " + this.cookie
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nTransfer-Encoding: chunked\r\n\r\n");
		String chunk = "x".repeat(64 * 1024);
		for (int i = 0; i <= MAX_UPLOAD / chunk.length(); i++) {
			request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		request.append("0\r\n\r\n");
		String response = this.api.raw(request.toString().getBytes(StandardCharsets.US_ASCII), false);
		assertThat(response).startsWith("HTTP/1.1 413");
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().status()).isEqualTo(404);
	}

	@ParameterizedTest
	@ValueSource(strings = { "content-length", "chunked" })
	void anUploadCutOffMidBodyLeavesNothing(String framing) throws Exception {
		String name = unique("cut") + ".bin";
		byte[] half = StorageTestSupport.randomBytes(3, 0, 300_000);
		String headers = "POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nHost: x\r\nCookie: " + this.cookie
				+ "\r\nX-Requested-With: XmlHttpRequest\r\n"
				+ (framing.equals("chunked")
						? "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(1_000_000) + "\r\n"
						: "Content-Length: 1000000\r\n\r\n");
		byte[] head = headers.getBytes(StandardCharsets.US_ASCII);
		byte[] request = new byte[head.length + half.length];
		System.arraycopy(head, 0, request, 0, head.length);
		System.arraycopy(half, 0, request, head.length, half.length);
		this.api.raw(request, true);
		Path folder = ROOT.resolve("data");
		// The write is abandoned asynchronously: wait until no temporary file is left,
		// then nothing may show.
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			try (Stream<Path> files = Files.list(folder)) {
				assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".wharf-tmp"));
			}
		});
		assertThat(folder.resolve(name)).doesNotExist();
		assertThat(this.api.get("/api/files/ls?path=/data/").browser(this.cookie).send().names()).doesNotContain(name);
	}

	@Test
	void refusesWhatTheUserMayNotWriteOrWhereNothingCanBe() {
		assertThat(
				this.api.post("/api/files/save?path=/ro/" + unique("x")).browser(this.cookie).body("x").send().status())
			.isEqualTo(403);
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.post("/api/files/save?path=/data/" + unique("x")).browser(bob).body("x").send().status())
			.isEqualTo(403);
		assertThat(this.api.post("/api/files/save?path=/scratch/" + unique("none") + "/x")
			.browser(this.cookie)
			.body("x")
			.send()
			.status()).isEqualTo(404);
		assertThat(this.api.post("/api/files/save?path=/scratch").browser(this.cookie).body("x").send().status())
			.isEqualTo(403);
		String folder = unique("folder");
		this.api.post("/api/files/mkdir?path=/scratch/" + folder).browser(this.cookie).send();
		assertThat(
				this.api.post("/api/files/save?path=/scratch/" + folder).browser(this.cookie).body("x").send().status())
			.isEqualTo(409);
	}

}
