package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.time.Instant;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.web.HttpDates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conditional requests over real HTTP (RFC 9110, section 13): {@code If-None-Match} and
 * {@code If-Modified-Since} give 304, {@code If-Match} and {@code If-Unmodified-Since}
 * give 412, in the RFC's order of precedence, on cached files, sendfile files and
 * memory-mount files alike.
 */
class ConditionalRequestTests extends AbstractStandardSitesTests {

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin", "/static/assets/app.1234.js" })
	void ifNoneMatchWithTheCurrentTagIsNotModified(String target) throws IOException {
		Response full = get(target);
		Response conditional = get(target, "If-None-Match: " + full.header("ETag"));
		assertThat(conditional.status()).isEqualTo(304);
		assertThat(conditional.body()).isEmpty();
		assertThat(conditional.header("ETag")).isEqualTo(full.header("ETag"));
		assertThat(conditional.header("Last-Modified")).isEqualTo(full.header("Last-Modified"));
		assertThat(conditional.header("Cache-Control")).isEqualTo(full.header("Cache-Control"));
		assertThat(conditional.headers()).doesNotContainKeys("content-length", "transfer-encoding");
	}

	@Test
	void ifNoneMatchComparesWeaklyAndAcceptsListsAndStar() throws IOException {
		String etag = get("/static/small.txt").header("ETag");
		assertThat(get("/static/small.txt", "If-None-Match: W/" + etag).status()).isEqualTo(304);
		assertThat(get("/static/small.txt", "If-None-Match: \"other\", " + etag).status()).isEqualTo(304);
		assertThat(get("/static/small.txt", "If-None-Match: *").status()).isEqualTo(304);
		assertThat(get("/static/small.txt", "If-None-Match: \"other\"").status()).isEqualTo(200);
		assertThat(get("/static/small.txt", "If-None-Match: \"other\"").body()).isEqualTo(SiteFixture.SMALL);
	}

	@Test
	void ifModifiedSinceComparesToTheSecond() throws IOException {
		Response full = get("/static/big.bin");
		Instant modified = HttpDates.parse(full.header("Last-Modified"));
		assertThat(get("/static/big.bin", "If-Modified-Since: " + full.header("Last-Modified")).status())
			.isEqualTo(304);
		assertThat(
				get("/static/big.bin", "If-Modified-Since: " + HttpDates.format(modified.plusSeconds(3600))).status())
			.isEqualTo(304);
		Response older = get("/static/big.bin", "If-Modified-Since: " + HttpDates.format(modified.minusSeconds(1)));
		assertThat(older.status()).isEqualTo(200);
		assertThat(older.body()).isEqualTo(SiteFixture.BIG);
		// RFC 850 and asctime dates are accepted too; garbage is ignored.
		assertThat(get("/static/big.bin", "If-Modified-Since: Sunday, 06-Nov-94 08:49:37 GMT").status()).isEqualTo(200);
		assertThat(get("/static/big.bin", "If-Modified-Since: Fri Dec 31 23:59:59 2100").status()).isEqualTo(304);
		assertThat(get("/static/big.bin", "If-Modified-Since: yesterday").status()).isEqualTo(200);
	}

	@ParameterizedTest
	@ValueSource(strings = { "If-Modified-Since", "If-Unmodified-Since", "If-Range" })
	void anOverlongDateIsIgnoredLikeAnyInvalidOne(String header) throws IOException {
		// Netty's date parser throws past 64 characters; this was a 500 (found by
		// PreconditionsFuzzTests).
		String overlong = "Sun, 06 Nov 1994 08:49:37 GMT" + " ".repeat(40) + "x";
		Response response = get("/static/big.bin", header + ": " + overlong, "Range: bytes=0-9");
		assertThat(response.status()).isEqualTo(header.equals("If-Range") ? 200 : 206);
	}

	@Test
	void ifMatchStarHoldsForAWeakTagToo() throws IOException {
		// The on-the-fly gzip representation has a weak tag; '*' means "any current
		// representation".
		Response gzipped = get("/static/page.html", "Accept-Encoding: gzip", "If-Match: *");
		assertThat(gzipped.status()).isEqualTo(200);
		assertThat(gzipped.header("ETag")).startsWith("W/");
	}

	@Test
	void ifNoneMatchTakesPrecedenceOverIfModifiedSince() throws IOException {
		Response full = get("/static/small.txt");
		Response response = get("/static/small.txt", "If-None-Match: \"other\"",
				"If-Modified-Since: " + full.header("Last-Modified"));
		assertThat(response.status()).isEqualTo(200);
	}

	@Test
	void ifMatchAndIfUnmodifiedSinceFailWith412() throws IOException {
		Response full = get("/static/small.txt");
		String etag = full.header("ETag");
		Instant modified = HttpDates.parse(full.header("Last-Modified"));
		assertThat(get("/static/small.txt", "If-Match: \"other\"").status()).isEqualTo(412);
		assertThat(get("/static/small.txt", "If-Match: W/" + etag).status()).as("weak tags never match If-Match")
			.isEqualTo(412);
		assertThat(get("/static/small.txt", "If-Match: " + etag).status()).isEqualTo(200);
		assertThat(get("/static/small.txt", "If-Match: *").status()).isEqualTo(200);
		assertThat(get("/static/small.txt", "If-Unmodified-Since: " + HttpDates.format(modified.minusSeconds(10)))
			.status()).isEqualTo(412);
		assertThat(get("/static/small.txt", "If-Unmodified-Since: " + full.header("Last-Modified")).status())
			.isEqualTo(200);
		// If-Match wins over If-Unmodified-Since.
		assertThat(get("/static/small.txt", "If-Match: " + etag,
				"If-Unmodified-Since: " + HttpDates.format(modified.minusSeconds(10)))
			.status()).isEqualTo(200);
		// And 412 wins over 304.
		assertThat(get("/static/small.txt", "If-Match: \"other\"", "If-None-Match: " + etag).status()).isEqualTo(412);
	}

	@Test
	void conditionsApplyToTheRepresentationSent() throws IOException {
		Response gzipped = get("/static/app.js", "Accept-Encoding: gzip");
		assertThat(gzipped.header("Content-Encoding")).isEqualTo("gzip");
		String gzipTag = gzipped.header("ETag");
		assertThat(gzipTag).isNotEqualTo(get("/static/app.js").header("ETag"));
		assertThat(get("/static/app.js", "Accept-Encoding: gzip", "If-None-Match: " + gzipTag).status()).isEqualTo(304);
		assertThat(get("/static/app.js", "If-None-Match: " + gzipTag).status()).isEqualTo(200);
	}

}
