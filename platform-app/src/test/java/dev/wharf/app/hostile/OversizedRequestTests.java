package dev.wharf.app.hostile;

import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Heads and bodies past the limits, and bodies whose {@code Content-Length} lies, over
 * raw sockets. A head over the limit gets 431 (headers) or 414 (request line) and a
 * closed connection; a body announced over the limit gets 413 before it is sent; a
 * chunked body is cut at the limit; a length shorter than the body stores what the length
 * says and the rest is refused as a malformed next request. Nothing half-written is left,
 * and the server keeps serving. (Bodies cut off by a close: module-filemanager's
 * {@code SaveTests.anUploadCutOffMidBodyLeavesNothing}; a stalled body:
 * {@link SlowClientTests}.)
 */
class OversizedRequestTests extends HostileServerTestBase {

	@ParameterizedTest
	@ValueSource(strings = { "one huge header", "ten thousand headers", "huge request line" })
	void anOversizedHeadIsRefusedAndTheConnectionClosed(String attack) throws Exception {
		StringBuilder request = new StringBuilder();
		int expected;
		switch (attack) {
			case "one huge header" -> {
				request.append("GET /api/files/ls?path=/data/ HTTP/1.1\r\nHost: x\r\nX-Big: ")
					.append("a".repeat(100_000))
					.append("\r\n");
				expected = 431;
			}
			case "ten thousand headers" -> {
				request.append("GET /cache/key HTTP/1.1\r\nHost: x\r\n");
				for (int i = 0; i < 10_000; i++) {
					request.append("X-H").append(i).append(": v\r\n");
				}
				expected = 431;
			}
			default -> {
				request.append("GET /static/").append("a".repeat(100_000)).append(" HTTP/1.1\r\nHost: x\r\n");
				expected = 414;
			}
		}
		request.append("\r\n");
		try (RawHttp wire = RawHttp.open(this.port)) {
			RawHttp.Response answer = sendAndRead(wire, request.toString().getBytes(StandardCharsets.US_ASCII));
			assertThat(answer.status()).isEqualTo(expected);
			assertThat(wire.closedWithin(RawHttp.PATIENCE)).isTrue();
		}
		serverStillServes();
	}

	@ParameterizedTest
	@ValueSource(strings = { "save", "cache", "login" })
	void aBodyAnnouncedOverTheLimitIsRefusedBeforeItIsSent(String endpoint) throws Exception {
		String name = unique("announced");
		try (RawHttp wire = RawHttp.open(this.port)) {
			// Only the head: a server that waited for the body would close on the body
			// timeout, with no answer.
			RawHttp.Response answer = wire
				.send(head(endpoint, name) + "Content-Length: " + (100L * MAX_BODY) + "\r\n\r\n")
				.read();
			assertThat(answer.status()).as(answer.text()).isEqualTo(413);
		}
		nothingStoredOrHalfWritten(name);
		serverStillServes();
	}

	@Test
	void aChunkedLoginOverTheLimitIsCut() throws Exception {
		// Save and cache PUT: module-filemanager's SaveTests and module-buildcache's
		// GradleProtocolTests.
		StringBuilder request = new StringBuilder(head("login", "") + "Transfer-Encoding: chunked\r\n\r\n");
		String chunk = " ".repeat(4096);
		for (int i = 0; i < 64; i++) {
			request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		request.append("0\r\n\r\n");
		try (RawHttp wire = RawHttp.open(this.port)) {
			assertThat(sendAndRead(wire, request.toString().getBytes(StandardCharsets.US_ASCII)).status())
				.isEqualTo(413);
		}
		serverStillServes();
	}

	@ParameterizedTest
	@ValueSource(strings = { "save", "cache" })
	void aLengthShorterThanTheBodyStoresWhatItSaysAndRefusesTheRest(String endpoint) throws Exception {
		String name = unique("short");
		try (RawHttp wire = RawHttp.open(this.port)) {
			wire.send(head(endpoint, name) + "Content-Length: 10\r\n\r\n" + "0123456789" + "this is not http\r\n\r\n");
			RawHttp.Response stored = wire.read();
			assertThat(stored.status()).isIn(200, 201);
			// The rest is read as the next request: it is no HTTP request, so the
			// connection closes (with no
			// answer, or a 400).
			byte[] rest = wire.restUntilClosed(RawHttp.PATIENCE);
			assertThat(rest).as("closed").isNotNull();
			assertThat(new String(rest, StandardCharsets.ISO_8859_1)).satisfiesAnyOf(
					answer -> assertThat(answer).isEmpty(), answer -> assertThat(answer).startsWith("HTTP/1.1 400 "));
		}
		String file = filesInMount().stream().filter(path -> path.contains(name)).findFirst().orElseThrow();
		if (endpoint.equals("save")) {
			assertThat(Files.readString(DATA.resolve(file))).isEqualTo("0123456789");
		}
		else {
			RawHttp.Response entry = RawHttp.exchange(this.port, "GET /cache/" + name
					+ " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\nConnection: close\r\n\r\n");
			assertThat(entry.text()).isEqualTo("0123456789");
		}
		serverStillServes();
	}

	@Test
	void aCachePutCutShortOfItsLengthStoresNothing() throws Exception {
		// The file manager's save: module-filemanager's
		// SaveTests.anUploadCutOffMidBodyLeavesNothing.
		String name = unique("cut");
		try (RawHttp wire = RawHttp.open(this.port)) {
			wire.send(head("cache", name) + "Content-Length: 500000\r\n\r\n" + "x".repeat(200_000));
		}
		nothingStoredOrHalfWritten(name);
		RawHttp.Response entry = RawHttp.exchange(this.port, "GET /cache/" + name
				+ " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\nConnection: close\r\n\r\n");
		assertThat(entry.status()).isEqualTo(404);
	}

	private String head(String endpoint, String name) throws IOException {
		return switch (endpoint) {
			case "save" -> "POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nHost: x\r\nCookie: " + alice()
					+ "\r\nX-Requested-With: XmlHttpRequest\r\n";
			case "cache" ->
				"PUT /cache/" + name + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\n";
			default -> "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
		};
	}

	/**
	 * Sends a large request and reads the answer. The server may answer and close before
	 * it has read everything: the rest of the write then fails, and the answer is still
	 * there to read.
	 */
	private static RawHttp.Response sendAndRead(RawHttp wire, byte[] request) throws IOException {
		try {
			wire.send(request);
		}
		catch (SocketException refused) {
			// Answered and closed early; read what came.
		}
		return wire.read();
	}

}
