package dev.wharf.filemanager.files;

import java.util.Arrays;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET|HEAD /api/files/cat}, over real HTTP, on the local mount (zero-copy) and a
 * memory mount.
 */
class DownloadTests extends FileManagerTestBase {

	private static final byte[] CONTENT = StorageTestSupport.randomBytes(7, 0, 100_000);

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private String upload(String mount, String name) {
		String path = "/" + mount + "/" + name;
		Answer saved = this.api.post("/api/files/save?path=" + path).browser(this.cookie).body(CONTENT).send();
		assertThat(saved.status()).as(saved.text()).isEqualTo(200);
		return path;
	}

	@ParameterizedTest
	@ValueSource(strings = { "data", "scratch" })
	void streamsAFileWithItsHeaders(String mount) {
		String path = upload(mount, unique("file") + ".bin");
		Answer answer = this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.body()).isEqualTo(CONTENT);
		assertThat(answer.header("Content-Length")).isEqualTo(Integer.toString(CONTENT.length));
		assertThat(answer.header("Accept-Ranges")).isEqualTo("bytes");
		assertThat(answer.header("Content-Security-Policy")).contains("default-src 'none'");
		assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
		assertThat(answer.header("Last-Modified")).isNotNull();
		assertThat(answer.header("ETag")).isNotNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "data", "scratch" })
	void servesOneRangeAnd416PastTheEnd(String mount) {
		String path = upload(mount, unique("range") + ".bin");
		Answer part = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=10-19")
			.send();
		assertThat(part.status()).isEqualTo(206);
		assertThat(part.body()).isEqualTo(Arrays.copyOfRange(CONTENT, 10, 20));
		assertThat(part.header("Content-Range")).isEqualTo("bytes 10-19/" + CONTENT.length);
		Answer suffix = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=-5")
			.send();
		assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(CONTENT, CONTENT.length - 5, CONTENT.length));
		Answer open = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=99990-")
			.send();
		assertThat(open.body()).isEqualTo(Arrays.copyOfRange(CONTENT, 99_990, CONTENT.length));
		Answer past = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=100000-")
			.send();
		assertThat(past.status()).isEqualTo(416);
		assertThat(past.header("Content-Range")).isEqualTo("bytes */" + CONTENT.length);
		// Several ranges (the overlapping-ranges attack) get the whole file, as RFC 9110
		// allows.
		Answer many = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=0-,0-,0-,0-")
			.send();
		assertThat(many.status()).isEqualTo(200);
		assertThat(many.body()).hasSize(CONTENT.length);
		Answer stale = this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("Range", "bytes=0-9")
			.header("If-Range", "\"other\"")
			.send();
		assertThat(stale.status()).isEqualTo(200);
	}

	@Test
	void answers304ToAFreshCopy() {
		String path = upload("scratch", unique("cond") + ".bin");
		Answer first = this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send();
		assertThat(this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("If-None-Match", first.header("ETag"))
			.send()
			.status()).isEqualTo(304);
		assertThat(this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("If-Modified-Since", first.header("Last-Modified"))
			.send()
			.status()).isEqualTo(304);
		assertThat(this.api.get("/api/files/cat?path=" + path)
			.browser(this.cookie)
			.header("If-Modified-Since", "Thu, 01 Jan 2004 00:00:00 GMT")
			.send()
			.status()).isEqualTo(200);
	}

	@Test
	void headGivesTheHeadersWithoutTheBodyAndAFolderIsADirectory() {
		String path = upload("scratch", unique("head") + ".bin");
		Answer head = this.api.request("HEAD", "/api/files/cat?path=" + path).browser(this.cookie).send();
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(CONTENT.length));
		assertThat(head.body()).isEmpty();
		Answer folder = this.api.request("HEAD", "/api/files/cat?path=/scratch/").browser(this.cookie).send();
		assertThat(folder.status()).isEqualTo(204);
		assertThat(folder.header("Content-Type")).isEqualTo("inode/directory");
		assertThat(this.api.get("/api/files/cat?path=/scratch/").browser(this.cookie).send().status()).isEqualTo(409);
	}

	@Test
	void aNameMakesItAnAttachmentAndScriptsAreNeverActive() {
		String html = "/scratch/" + unique("page") + ".html";
		this.api.post("/api/files/save?path=" + html).browser(this.cookie).body("<script>alert(1)</script>").send();
		Answer page = this.api.get("/api/files/cat?path=" + html).browser(this.cookie).send();
		assertThat(page.header("Content-Type")).isEqualTo("text/plain");
		for (String name : new String[] { "a.js", "b.svg", "c.xhtml", "d.xml", "e.mjs" }) {
			String path = "/scratch/" + unique("x") + name;
			this.api.post("/api/files/save?path=" + path).browser(this.cookie).body("x").send();
			assertThat(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().header("Content-Type"))
				.as(name)
				.isEqualTo("text/plain");
		}
		String png = "/scratch/" + unique("image") + ".png";
		this.api.post("/api/files/save?path=" + png).browser(this.cookie).body("x").send();
		assertThat(this.api.get("/api/files/cat?path=" + png).browser(this.cookie).send().header("Content-Type"))
			.isEqualTo("image/png");
		Answer named = this.api.get("/api/files/cat?path=" + html + "&name=r%C3%A9sum%C3%A9.html")
			.browser(this.cookie)
			.send();
		assertThat(named.header("Content-Disposition")).startsWith("attachment;")
			.contains("filename*=UTF-8''r%C3%A9sum%C3%A9.html");
	}

	@Test
	void downloadsWorkWithTheCookieAloneForImagesAndLinks() {
		String path = upload("scratch", unique("link") + ".bin");
		Answer answer = this.api.get("/api/files/cat?path=" + path).header("Cookie", this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.body()).isEqualTo(CONTENT);
	}

	@Test
	void missingFilesAndTheTopLevelAreErrors() {
		assertThat(this.api.get("/api/files/cat?path=/scratch/" + unique("none")).browser(this.cookie).send().status())
			.isEqualTo(404);
		assertThat(this.api.get("/api/files/cat?path=/").browser(this.cookie).send().status()).isEqualTo(403);
		assertThat(this.api.get("/api/files/cat").browser(this.cookie).send().message()).contains("path");
	}

}
