package dev.wharf.staticfiles.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Content codings over real HTTP: precompressed {@code .br}/{@code .gz} siblings chosen
 * by {@code Accept-Encoding} (with q-values), gzip made on the fly for compressible types
 * above the size threshold (cached once, or streamed), never for images or tiny files,
 * and {@code Vary} wherever the answer depends on {@code Accept-Encoding}.
 */
class ContentCodingTests extends AbstractStandardSitesTests {

	@ParameterizedTest
	@CsvSource(value = { "gzip, deflate, br| br", "br| br", "gzip| gzip", "x-gzip| gzip", "br;q=0.5, gzip| gzip",
			"br;q=1.0, gzip;q=1.0| br", "br;q=0, gzip;q=0| ", "*| br", "*;q=0.1, br;q=0| gzip", "identity| ",
			"deflate| ", "GZIP| gzip", "br;q=oops, gzip| gzip" }, delimiter = '|')
	void precompressedSiblingsAreChosenByAcceptEncoding(String accept, String coding) throws IOException {
		for (String prefix : new String[] { "/static", "/mem" }) {
			Response response = get(prefix + "/app.js", "Accept-Encoding: " + accept);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("Content-Encoding")).as(prefix + " " + accept).isEqualTo(coding);
			assertThat(response.header("Vary")).isEqualToIgnoringCase("Accept-Encoding");
			assertThat(response.header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
			byte[] expected = (coding == null) ? SiteFixture.APP
					: coding.equals("br") ? SiteFixture.APP_BR : SiteFixture.APP_GZ;
			assertThat(response.body()).isEqualTo(expected);
			assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(expected.length));
		}
	}

	@Test
	void withoutAcceptEncodingTheFileItselfIsSentWithVary() throws IOException {
		Response response = get("/static/app.js");
		assertThat(response.headers()).doesNotContainKey("content-encoding");
		assertThat(response.header("Vary")).isEqualToIgnoringCase("Accept-Encoding");
		assertThat(response.body()).isEqualTo(SiteFixture.APP);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/page.html", "/mem/page.html", "/static/style.css", "/mem/style.css" })
	void compressibleFilesAreGzippedOnTheFly(String target) throws IOException {
		byte[] plain = target.endsWith(".html") ? SiteFixture.PAGE : SiteFixture.STYLE;
		Response response = get(target, "Accept-Encoding: gzip");
		assertThat(response.header("Content-Encoding")).isEqualTo("gzip");
		assertThat(response.header("Vary")).isEqualToIgnoringCase("Accept-Encoding");
		assertThat(response.header("ETag")).startsWith("W/\"");
		assertThat(response.headers()).doesNotContainKey("accept-ranges");
		assertThat(gunzip(response.body())).isEqualTo(plain);
		assertThat(response.body().length).isLessThan(plain.length);
		Response identity = get(target);
		assertThat(identity.body()).isEqualTo(plain);
		assertThat(identity.header("Vary")).isEqualToIgnoringCase("Accept-Encoding");
		assertThat(response.header("ETag")).isEqualTo("W/" + identity.header("ETag"));
	}

	@Test
	void largeFilesAreGzippedAsAStreamAndSmallOnesOnce() throws IOException {
		// page.html (5 KB) is over the cache's file size: chunked; style.css (900 B) is
		// cached compressed.
		assertThat(get("/static/page.html", "Accept-Encoding: gzip").header("Transfer-Encoding")).isEqualTo("chunked");
		Response cached = get("/static/style.css", "Accept-Encoding: gzip");
		assertThat(cached.header("Content-Length")).isEqualTo(Integer.toString(cached.body().length));
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/image.png", "/static/small.txt", "/static/big.bin", "/mem/image.png" })
	void imagesBinariesAndTinyFilesAreNeverCompressed(String target) throws IOException {
		Response response = get(target, "Accept-Encoding: gzip, br");
		assertThat(response.headers()).doesNotContainKeys("content-encoding", "vary");
	}

	static byte[] gunzip(byte[] gzip) {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
