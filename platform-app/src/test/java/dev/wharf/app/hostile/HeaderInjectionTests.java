package dev.wharf.app.hostile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.ContentDisposition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CR/LF and quotes in names that end up in response headers: a download's name
 * ({@code cat?name=}, client chosen: refused with 400 unless it is a valid stored name)
 * and a zip's name (from stored names) in {@code Content-Disposition}, and a static
 * site's folder redirect, which keeps the raw path and query in {@code Location}. No
 * header may be split (no injected {@code Set-Cookie}). Stored names cannot hold control
 * characters at all (platform-core's {@code StoragePathTests}); FTP listings: module-ftp.
 */
class HeaderInjectionTests extends HostileServerTestBase {

	@ParameterizedTest
	@ValueSource(strings = { "a%0D%0ASet-Cookie:%20injected=1", "a%0ASet-Cookie:%20injected=1",
			"a%0DSet-Cookie:%20injected=1", "%E2%80%AEgnp.exe" })
	void aDownloadNameWithControlCharactersIsRefused(String name) throws Exception {
		RawHttp.Response answer = download(name);
		assertThat(answer.status()).isEqualTo(400);
		assertNotSplit(answer);
		assertThat(answer.headers("content-disposition")).isEmpty();
	}

	@Test
	void aDownloadNameWithQuotesAndSemicolonsIsOneParameter() throws Exception {
		RawHttp.Response answer = download("a%22%3B%20filename=evil.exe");
		assertThat(answer.status()).isEqualTo(200);
		assertNotSplit(answer);
		List<String> disposition = answer.headers("content-disposition");
		assertThat(disposition).hasSize(1);
		// Parsed as RFC 6266 says, the name is exactly the one asked for: quotes escaped,
		// no extra parameter.
		ContentDisposition parsed = ContentDisposition.parse(disposition.get(0));
		assertThat(parsed.isAttachment()).isTrue();
		assertThat(parsed.getFilename()).isEqualTo("a\"; filename=evil.exe");
	}

	private RawHttp.Response download(String name) throws Exception {
		Path folder = Files.createDirectories(DATA.resolve("names"));
		Files.writeString(folder.resolve("file.txt"), "content");
		return RawHttp.exchange(this.port,
				"GET /api/files/cat?path=/data/names/file.txt&name=" + name + " HTTP/1.1\r\n" + "Host: x\r\nCookie: "
						+ alice() + "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n");
	}

	@Test
	void aZipNamedAfterAFolderWithQuotesAndSemicolonsIsOneParameter() throws Exception {
		Path folder = Files.createDirectories(DATA.resolve("x\";filename=evil.exe;y"));
		Files.writeString(folder.resolve("inside.txt"), "content");
		RawHttp.Response answer = RawHttp.exchange(this.port,
				"GET /api/files/zip?path=/data/x%22%3Bfilename%3Devil.exe%3By HTTP/1.1\r\n" + "Host: x\r\nCookie: "
						+ alice() + "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n");
		assertThat(answer.status()).isEqualTo(200);
		assertNotSplit(answer);
		assertThat(answer.headers("content-disposition")).hasSize(1);
		assertThat(ContentDisposition.parse(answer.header("content-disposition")).getFilename())
			.isEqualTo("x\";filename=evil.exe;y.zip");
	}

	@ParameterizedTest
	@CsvSource(delimiter = ' ', value = { "/static/sub?x=%0D%0ASet-Cookie:%20injected=1 301",
			"/static/sub%0D%0ASet-Cookie:%20injected=1 400", "/static/sub%0d%0a%20Set-Cookie:injected=1/ 400" })
	void aStaticRedirectCannotBeSplit(String target, int expected) throws Exception {
		Files.createDirectories(DATA.resolve("public").resolve("sub"));
		RawHttp.Response answer = RawHttp.exchange(this.port,
				"GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(answer.status()).isEqualTo(expected);
		assertNotSplit(answer);
		if (expected == 301) {
			// The query is kept as it came: still percent-encoded.
			assertThat(answer.header("location")).isEqualTo("/static/sub/?x=%0D%0ASet-Cookie:%20injected=1");
		}
	}

	private static void assertNotSplit(RawHttp.Response answer) {
		assertThat(answer.headers("set-cookie")).noneMatch(cookie -> cookie.contains("injected"));
		for (Map.Entry<String, List<String>> header : answer.headers().entrySet()) {
			assertThat(header.getKey()).doesNotContain("injected").doesNotContain("filename");
		}
	}

}
