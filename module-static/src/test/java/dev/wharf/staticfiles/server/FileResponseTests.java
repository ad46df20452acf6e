package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.web.HttpDates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Full responses over real HTTP: status, body and every header rule, the same on a local
 * mount (cached bytes and sendfile) and a memory mount (a storage stream); HEAD is GET
 * without the body; other methods get 405; folders redirect to their slash.
 */
class FileResponseTests extends AbstractStandardSitesTests {

	@ParameterizedTest
	@ValueSource(strings = { "/static", "/mem" })
	void servesEveryFileByteForByte(String prefix) throws IOException {
		assertBody(prefix + "/small.txt", SiteFixture.SMALL);
		assertBody(prefix + "/big.bin", SiteFixture.BIG);
		assertBody(prefix + "/page.html", SiteFixture.PAGE);
		assertBody(prefix + "/app.js", SiteFixture.APP);
		assertBody(prefix + "/empty.txt", new byte[0]);
	}

	private static void assertBody(String target, byte[] expected) throws IOException {
		Response response = get(target);
		assertThat(response.status()).as(target).isEqualTo(200);
		assertThat(response.body()).as(target).isEqualTo(expected);
		assertThat(response.header("Content-Length")).as(target).isEqualTo(Integer.toString(expected.length));
	}

	@Test
	void sendsTheValidatorsAndHeadersOfAFile() throws IOException {
		Response response = get("/static/small.txt");
		Instant modified = Files.getLastModifiedTime(folder.resolve("site/small.txt")).toInstant();
		assertThat(response.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
		assertThat(response.header("Last-Modified")).isEqualTo(HttpDates.format(modified));
		assertThat(response.header("ETag")).matches("\"[0-9a-f]+(\\.[0-9a-f]+)?-57\"")
			.startsWith("\"" + Long.toHexString(modified.getEpochSecond()));
		assertThat(response.header("Accept-Ranges")).isEqualTo("bytes");
		assertThat(response.header("X-Content-Type-Options")).isEqualTo("nosniff");
		assertThat(response.header("X-Frame-Options")).isEqualTo("DENY");
		assertThat(HttpDates.parse(response.header("Date"))).isBetween(Instant.now().minusSeconds(60),
				Instant.now().plusSeconds(60));
		assertThat(response.headers()).doesNotContainKeys("cache-control", "vary", "content-encoding",
				"transfer-encoding");
	}

	@Test
	void entityTagChangesWithTheFile() throws IOException {
		String before = get("/static/plain/readme.txt").header("ETag");
		Files.setLastModifiedTime(folder.resolve("site/plain/readme.txt"),
				java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
		String after = eventually(() -> get("/static/plain/readme.txt").header("ETag"), before);
		assertThat(after).isNotEqualTo(before);
	}

	private static String eventually(IoSupplier<String> value, String old) {
		return await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(value::get, current -> !current.equals(old));
	}

	@FunctionalInterface
	interface IoSupplier<T> {

		T get() throws IOException;

	}

	@ParameterizedTest
	@CsvSource({ "/static/page.html, text/html; charset=utf-8", "/static/style.css, text/css; charset=utf-8",
			"/static/app.js, text/javascript; charset=utf-8", "/static/image.png, image/png",
			"/static/notes.wharfdoc, application/x-wharf-doc", "/static/data, application/octet-stream",
			"/static/docs/, text/html; charset=utf-8", "/mem/notes.wharfdoc, application/octet-stream" })
	void contentTypeComesFromTheExtensionAndTheSiteMap(String target, String type) throws IOException {
		assertThat(get(target).header("Content-Type")).isEqualTo(type);
	}

	@ParameterizedTest
	@CsvSource(
			value = { "/static/assets/app.1234.js| public, max-age=31536000, immutable", "/static/page.html| no-cache",
					"/static/docs/| no-cache", "/static/small.txt| ", "/mem/assets/app.1234.js| " },
			delimiter = '|')
	void cacheControlFollowsTheFirstMatchingRule(String target, String expected) throws IOException {
		assertThat(get(target).header("Cache-Control")).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/static/page.html", "/static/style.css",
			"/static/app.js", "/static/empty.txt", "/mem/big.bin", "/mem/page.html", "/static/missing", "/static/docs",
			"/static/%2e%2e/x", "/listed/plain/", "/app/some/route" })
	void headIsGetWithoutTheBody(String target) throws IOException {
		for (String[] headers : List.of(new String[0], new String[] { "Accept-Encoding: gzip, br" },
				new String[] { "Range: bytes=0-9" }, new String[] { "Range: bytes=0-0,5-9" },
				new String[] { "If-None-Match: *" })) {
			try (RawHttp http = RawHttp.open(server.port())) {
				Response get = http.exchange("GET", target, headers);
				Response head = http.exchange("HEAD", target, headers);
				assertThat(head.status()).as(target + " " + List.of(headers)).isEqualTo(get.status());
				assertThat(withoutVolatile(head.headers())).as(target + " " + List.of(headers))
					.isEqualTo(withoutVolatile(get.headers()));
				assertThat(head.body()).isEmpty();
			}
		}
	}

	/**
	 * Headers that may differ between two responses: the clock, and a multipart boundary.
	 */
	private static Map<String, List<String>> withoutVolatile(Map<String, List<String>> headers) {
		Map<String, List<String>> copy = new LinkedHashMap<>(headers);
		copy.remove("date");
		copy.computeIfPresent("content-type",
				(name, values) -> List.of(values.get(0).replaceAll("boundary=.*", "boundary=")));
		return copy;
	}

	@ParameterizedTest
	@ValueSource(strings = { "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND" })
	void otherMethodsGet405WithAllow(String method) throws IOException {
		try (RawHttp http = RawHttp.open(server.port())) {
			Response response = http
				.send((method + " /static/small.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
					.getBytes(java.nio.charset.StandardCharsets.US_ASCII))
				.read();
			assertThat(response.status()).isEqualTo(405);
			assertThat(response.header("Allow")).isEqualTo("GET, HEAD");
			// The connection stays usable: the request body was skipped.
			assertThat(http.exchange("GET", "/static/small.txt").body()).isEqualTo(SiteFixture.SMALL);
		}
		assertThat(folder.resolve("site/small.txt")).hasBinaryContent(SiteFixture.SMALL);
	}

	@ParameterizedTest
	@CsvSource({ "/static, /static/", "/static?x=1, /static/?x=1", "/static/docs, /static/docs/",
			"/static/docs?a=b&c, /static/docs/?a=b&c", "/static/docs/guide, /static/docs/guide/" })
	void folderWithoutSlashRedirectsKeepingTheQuery(String target, String location) throws IOException {
		Response response = get(target);
		assertThat(response.status()).isEqualTo(301);
		assertThat(response.header("Location")).isEqualTo(location);
	}

	@Test
	void aFileWithATrailingSlashIsNotFound() throws IOException {
		assertThat(get("/static/small.txt/").status()).isEqualTo(404);
	}

	@Test
	void requestsOutsideEverySiteGoToTheRestOfWharf() throws IOException {
		for (String target : List.of("/", "/staticx/small.txt", "/stati", "/api/files/ls", "/STATIC/small.txt")) {
			Response response = get(target);
			assertThat(response.text()).as(target).isEqualTo(StaticTestServer.FALLBACK);
		}
	}

	@Test
	void acceptsAbsoluteFormAndNonAsciiNames() throws IOException {
		Response absolute = get("http://127.0.0.1/static/small.txt?q=/x");
		assertThat(absolute.body()).isEqualTo(SiteFixture.SMALL);
		Response encoded = get("/static/na%C3%AFve%20caf%C3%A9.txt");
		assertThat(encoded.text()).isEqualTo("utf8");
	}

	@Test
	void http10KeepAliveClientsAreToldTheConnectionStaysOpen() throws IOException {
		try (RawHttp http = RawHttp.open(server.port())) {
			for (int i = 0; i < 3; i++) {
				Response response = http
					.send("GET /static/small.txt HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n".getBytes())
					.read();
				assertThat(response.header("Connection")).isEqualToIgnoringCase("keep-alive");
				assertThat(response.body()).isEqualTo(SiteFixture.SMALL);
			}
		}
	}

	@Test
	void manyKeepAliveRequestsOnOneConnectionNeverStall() throws IOException {
		try (RawHttp http = RawHttp.open(server.port())) {
			for (int i = 0; i < 300; i++) {
				String target = (i % 3 == 0) ? "/static/small.txt"
						: (i % 3 == 1) ? "/mem/small.txt" : "/static/style.css";
				assertThat(http.exchange("GET", target).status()).isEqualTo(200);
			}
		}
	}

}
