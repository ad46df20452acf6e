package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast lane answers plain hits for cached files on the connection itself, exactly as
 * the regular route would, and hands everything else to Reactor Netty without ever
 * reordering responses.
 */
class FastLaneTests {

	@TempDir
	Path folder;

	@Test
	void plainHitsGetTheSameAnswerAsTheRegularRoute() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder)) {
			for (String target : List.of("/static/small.txt", "/static/big.bin", "/static/style.css",
					"/static/app.js")) {
				for (String[] headers : List.of(new String[0], new String[] { "Accept-Encoding: gzip, br" })) {
					for (String method : List.of("GET", "HEAD")) {
						List<String> conditional = new java.util.ArrayList<>(List.of(headers));
						conditional.add("If-None-Match: \"no\"");
						Response regular = RawHttp.exchange(server.port(), method, target,
								conditional.toArray(String[]::new));
						Response fast = fastLane(server, method, target, headers);
						assertThat(fast.status()).isEqualTo(200);
						assertThat(withoutDate(fast.headers())).as(method + " " + target)
							.isEqualTo(withoutDate(regular.headers()));
						assertThat(fast.body()).isEqualTo(regular.body());
					}
				}
			}
		}
	}

	@Test
	void pipelinedRequestsAreAnsweredInOrder() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder);
				RawHttp http = RawHttp.open(server.port())) {
			fastLane(server, "GET", "/static/small.txt");
			String requests = "GET " + StaticTestServer.SLOW + " HTTP/1.1\r\nHost: x\r\n\r\n"
					+ "GET /static/small.txt HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2);
			Response slow = http.send(requests.getBytes(StandardCharsets.US_ASCII)).read();
			assertThat(slow.text()).isEqualTo("slow");
			for (int i = 0; i < 2; i++) {
				Response small = http.send(new byte[0]).read();
				assertThat(small.body()).isEqualTo(SiteFixture.SMALL);
			}
			// Once nothing is pending, the fast lane answers again.
			fastLane(server, "GET", "/static/small.txt");
		}
	}

	@Test
	void requestsThatAreNotPlainGoThroughTheRegularRoute() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder)) {
			String etag = fastLane(server, "GET", "/static/small.txt").header("ETag");
			long before = server.files().fastLaneAnswers();
			assertThat(RawHttp.exchange(server.port(), "GET", "/static/small.txt", "If-None-Match: " + etag).status())
				.isEqualTo(304);
			assertThat(server.files().fastLaneAnswers()).as("conditional").isEqualTo(before);
			assertThat(RawHttp.exchange(server.port(), "GET", "/static/small.txt", "Range: bytes=0-1").status())
				.isEqualTo(206);
			assertThat(server.files().fastLaneAnswers()).as("range").isEqualTo(before);
			try (RawHttp http = RawHttp.open(server.port())) {
				Response withBody = http
					.send("GET /static/small.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello".getBytes())
					.read();
				assertThat(withBody.body()).isEqualTo(SiteFixture.SMALL);
				assertThat(server.files().fastLaneAnswers()).as("with a body").isEqualTo(before);
				assertThat(http.exchange("GET", "/static/small.txt").body()).isEqualTo(SiteFixture.SMALL);
			}
			try (RawHttp http = RawHttp.open(server.port())) {
				Response closing = http.exchange("GET", "/static/small.txt", "Connection: close");
				assertThat(closing.body()).isEqualTo(SiteFixture.SMALL);
				assertThat(server.files().fastLaneAnswers()).as("closing").isEqualTo(before + 1);
				assertThat(http.closedWithin(RawHttp.PATIENCE)).isTrue();
			}
			try (RawHttp http = RawHttp.open(server.port())) {
				Response http10 = http.send("GET /static/small.txt HTTP/1.0\r\n\r\n".getBytes()).read();
				assertThat(http10.body()).isEqualTo(SiteFixture.SMALL);
				assertThat(http.closedWithin(RawHttp.PATIENCE)).isTrue();
			}
			// Only the plain GET after the one with a body took the fast lane.
			assertThat(server.files().fastLaneAnswers()).isEqualTo(before + 1);
		}
	}

	@Test
	void theFastLaneCanBeSwitchedOff() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder, "fast-lane=false")) {
			for (int i = 0; i < 3; i++) {
				assertThat(RawHttp.exchange(server.port(), "GET", "/static/small.txt").body())
					.isEqualTo(SiteFixture.SMALL);
			}
			assertThat(server.files().fastLaneAnswers()).isZero();
		}
	}

	/**
	 * Repeats a request until the fast lane answers it: the first requests of a path
	 * resolve and cache it, and a freshly cached local file is checked once more before
	 * it is trusted.
	 */
	static Response fastLane(StaticTestServer server, String method, String target, String... headers)
			throws IOException {
		for (int i = 0; i < 10; i++) {
			long before = server.files().fastLaneAnswers();
			Response response = RawHttp.exchange(server.port(), method, target, headers);
			if (server.files().fastLaneAnswers() == before + 1) {
				return response;
			}
		}
		throw new AssertionError("The fast lane never answered " + method + " " + target);
	}

	private static Map<String, List<String>> withoutDate(Map<String, List<String>> headers) {
		Map<String, List<String>> copy = new LinkedHashMap<>(headers);
		copy.remove("date");
		return copy;
	}

}
