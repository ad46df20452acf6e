package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Range requests over real HTTP (RFC 9110, section 14): single ranges, suffixes, open
 * ends, ranges past the end, several ranges as {@code multipart/byteranges}, overlapping
 * ranges merged, too many ranges ignored (CVE-2011-3192), 416, and {@code If-Range}; on
 * cached bytes (small), sendfile (big, local) and a storage stream (big, memory).
 */
class RangeRequestTests extends AbstractStandardSitesTests {

	static byte[] fixture(String target) {
		return target.endsWith("small.txt") ? SiteFixture.SMALL : SiteFixture.BIG;
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/small.txt", "/mem/big.bin" })
	void singleRanges(String target) throws IOException {
		byte[] file = fixture(target);
		int n = file.length;
		assertRange(target, "bytes=0-9", 0, 9, n);
		assertRange(target, "bytes=10-", 10, n - 1, n);
		assertRange(target, "bytes=-20", n - 20, n - 1, n);
		assertRange(target, "bytes=5-" + (n + 1000), 5, n - 1, n);
		assertRange(target, "bytes=-" + (n + 1000), 0, n - 1, n);
		assertRange(target, "bytes=" + (n - 1) + "-" + (n - 1), n - 1, n - 1, n);
		assertRange(target, "BYTES = 1-2".replace(" = ", "="), 1, 2, n);
	}

	private static void assertRange(String target, String range, int first, int last, int length) throws IOException {
		Response response = get(target, "Range: " + range);
		assertThat(response.status()).as(target + " " + range).isEqualTo(206);
		assertThat(response.header("Content-Range")).isEqualTo("bytes " + first + "-" + last + "/" + length);
		assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(last - first + 1));
		assertThat(response.body()).isEqualTo(Arrays.copyOfRange(fixture(target), first, last + 1));
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin" })
	void unsatisfiableRangesGet416(String target) throws IOException {
		int n = fixture(target).length;
		for (String range : List.of("bytes=" + n + "-", "bytes=" + (n + 5) + "-" + (n + 10), "bytes=-0",
				"bytes=" + n + "-, -0")) {
			Response response = get(target, "Range: " + range);
			assertThat(response.status()).as(range).isEqualTo(416);
			assertThat(response.header("Content-Range")).isEqualTo("bytes */" + n);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin" })
	void malformedOrForeignRangesAreIgnored(String target) throws IOException {
		for (String range : List.of("bytes=5-1", "bytes=a-b", "bytes=1-2-3", "items=0-1", "bytes=", "bytes=--1",
				"bytes=0-1;x", "bytes 0-1")) {
			Response response = get(target, "Range: " + range);
			assertThat(response.status()).as(range).isEqualTo(200);
			assertThat(response.body()).isEqualTo(fixture(target));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin" })
	void severalRangesAreSentAsMultipartInOrder(String target) throws IOException {
		byte[] file = fixture(target);
		int n = file.length;
		Response response = get(target, "Range: bytes=-5, 0-3,40-49");
		assertThat(response.status()).isEqualTo(206);
		String type = response.header("Content-Type");
		assertThat(type).startsWith("multipart/byteranges; boundary=");
		assertThat(response.headers()).doesNotContainKey("content-range");
		List<Part> parts = parse(response.body(), type.substring(type.indexOf('=') + 1));
		assertThat(parts).hasSize(3);
		assertPart(parts.get(0), file, 0, 3, n);
		assertPart(parts.get(1), file, 40, 49, n);
		assertPart(parts.get(2), file, n - 5, n - 1, n);
		assertThat(Long.parseLong(response.header("Content-Length"))).isEqualTo(response.body().length);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin" })
	void overlappingAndAdjacentRangesAreMerged(String target) throws IOException {
		byte[] file = fixture(target);
		assertRange(target, "bytes=0-9,5-19,20-29", 0, 29, file.length);
		assertRange(target, "bytes=10-20,0-15", 0, 20, file.length);
		// Many overlapping small ranges cannot multiply the response (CVE-2011-3192).
		StringBuilder many = new StringBuilder("bytes=0-40");
		for (int i = 1; i < 16; i++) {
			many.append(',').append(i).append('-').append(i + 40);
		}
		Response response = get(target, "Range: " + many);
		assertThat(response.status()).isEqualTo(206);
		assertThat(response.body()).hasSize(56);
	}

	@Test
	void moreRangesThanAllowedGetTheWholeFile() throws IOException {
		StringBuilder ranges = new StringBuilder("bytes=0-0");
		for (int i = 1; i <= 16; i++) {
			ranges.append(',').append(2 * i).append('-').append(2 * i);
		}
		Response response = get("/static/big.bin", "Range: " + ranges);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(SiteFixture.BIG);
		Response allowed = get("/static/big.bin", "Range: " + ranges.substring(0, ranges.lastIndexOf(",")));
		assertThat(allowed.status()).isEqualTo(206);
	}

	@Test
	void emptyFilesIgnoreRanges() throws IOException {
		Response response = get("/static/empty.txt", "Range: bytes=0-10");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/static/small.txt", "/static/big.bin", "/mem/big.bin" })
	void ifRangeSendsThePartOnlyForTheSameVersion(String target) throws IOException {
		Response full = get(target);
		String etag = full.header("ETag");
		assertThat(get(target, "Range: bytes=0-9", "If-Range: " + etag).status()).isEqualTo(206);
		assertThat(get(target, "Range: bytes=0-9", "If-Range: " + full.header("Last-Modified")).status())
			.isEqualTo(206);
		Response changed = get(target, "Range: bytes=0-9", "If-Range: \"another-version\"");
		assertThat(changed.status()).isEqualTo(200);
		assertThat(changed.body()).isEqualTo(fixture(target));
		assertThat(get(target, "Range: bytes=0-9", "If-Range: W/" + etag).status()).isEqualTo(200);
		assertThat(get(target, "Range: bytes=0-9", "If-Range: Sun, 06 Nov 1994 08:49:37 GMT").status()).isEqualTo(200);
	}

	@Test
	void rangesAreOfThePlainBytesEvenForClientsAcceptingGzip() throws IOException {
		Response response = get("/static/app.js", "Range: bytes=0-6", "Accept-Encoding: gzip, br");
		assertThat(response.status()).isEqualTo(206);
		assertThat(response.headers()).doesNotContainKey("content-encoding");
		assertThat(response.text()).isEqualTo("console");
		assertThat(response.header("Vary")).isEqualToIgnoringCase("Accept-Encoding");
	}

	private static void assertPart(Part part, byte[] file, int first, int last, int length) {
		assertThat(part.contentRange()).isEqualTo("bytes " + first + "-" + last + "/" + length);
		assertThat(part.body()).isEqualTo(Arrays.copyOfRange(file, first, last + 1));
	}

	record Part(String contentRange, byte[] body) {
	}

	/**
	 * Parses a multipart/byteranges body strictly enough to catch a wrong length or
	 * delimiter.
	 */
	static List<Part> parse(byte[] body, String boundary) {
		String text = new String(body, StandardCharsets.ISO_8859_1);
		String delimiter = "\r\n--" + boundary;
		assertThat(text).startsWith(delimiter + "\r\n").endsWith(delimiter + "--\r\n");
		List<Part> parts = new ArrayList<>();
		Pattern header = Pattern.compile("\r\n--" + Pattern.quote(boundary)
				+ "\r\nContent-Type: [^\r\n]+\r\nContent-Range: (bytes (\\d+)-(\\d+)/\\d+)\r\n\r\n");
		Matcher matcher = header.matcher(text);
		int position = 0;
		while (matcher.find(position) && matcher.start() == position) {
			int start = matcher.end();
			int length = Integer.parseInt(matcher.group(3)) - Integer.parseInt(matcher.group(2)) + 1;
			parts.add(new Part(matcher.group(1), Arrays.copyOfRange(body, start, start + length)));
			position = start + length;
		}
		assertThat(text.substring(position)).isEqualTo(delimiter + "--\r\n");
		return parts;
	}

}
