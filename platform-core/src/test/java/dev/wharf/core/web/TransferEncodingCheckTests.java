package dev.wharf.core.web;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TransferEncodingCheck} on a bare Reactor Netty server, over raw
 * sockets: any coding but one final {@code chunked} is refused (501 unknown, 400
 * malformed) before the handler, the connection closes and the body is never read (nor
 * taken for a next request); {@code chunked} itself passes. The modules' own requests
 * (build cache, file manager, static sites) are platform-app's
 * {@code dev.wharf.app.hostile.TransferEncodingTests}.
 */
class TransferEncodingCheckTests {

	private static final String BODY = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

	DisposableServer server;

	/** What the handler saw: method, path and the body's length. */
	final List<String> handled = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() {
		HttpServer server = KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0));
		this.server = TransferEncodingCheck.install(server)
			.handle((request, response) -> request.receive()
				.aggregate()
				.asString(StandardCharsets.ISO_8859_1)
				.defaultIfEmpty("")
				.flatMap(body -> {
					this.handled.add(request.method() + " " + request.uri() + " " + body.length());
					return response.sendString(Mono.just("got " + body.length())).then();
				}))
			.bindNow(Duration.ofSeconds(10));
	}

	@AfterEach
	void dispose() {
		this.server.disposeNow();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "xchunked|501", "gzip|501", "gzip, chunked|501", "identity|501", "chunked;ext=1|501",
					"chunked, gzip|400", "chunked, chunked|400", "' '|400", "','|400", "ch@nked|400", "'chunked, '|400",
					"Chunked|200", "chunked|200" })
	void onlyOneFinalChunkedIsAccepted(String codings, int status) throws IOException {
		String chunkedBody = "5\r\nhello\r\n0\r\n\r\n";
		String answer = exchange("PUT /entry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + codings + "\r\n"
				+ ((status == 200) ? "Connection: close\r\n\r\n" + chunkedBody : "\r\n" + BODY));
		assertThat(answer).startsWith("HTTP/1.1 " + status + " ");
		if (status == 200) {
			assertThat(answer).endsWith("got 5");
			assertThat(this.handled).containsExactly("PUT /entry 5");
			return;
		}
		// Netty's decoder refuses some malformed lists itself (400 without a body); the
		// check answers the rest.
		assertThat(answer).containsIgnoringCase("\r\nconnection: close\r\n");
		if (status == 501) {
			assertThat(answer).contains("only chunked is supported");
		}
		assertThat(answer).as("one answer: the body was not read as a request").containsOnlyOnce("HTTP/1.1");
		assertThat(this.handled).as("no handler saw the request or its body").isEmpty();
	}

	@Test
	void headerLinesAreTakenTogether() throws IOException {
		String answer = exchange("PUT /entry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
				+ "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
		assertThat(answer).startsWith("HTTP/1.1 400 ");
		assertThat(this.handled).isEmpty();
	}

	@Test
	void anHttp10RequestMayNotCarryTransferEncoding() throws IOException {
		String answer = exchange(
				"PUT /entry HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
		assertThat(answer).startsWith("HTTP/1.1 400 ");
		assertThat(this.handled).isEmpty();
	}

	@Test
	void aRefusalPipelinedBehindAnotherRequestFollowsItsResponse() throws IOException {
		String answer = exchange("GET /first HTTP/1.1\r\nHost: x\r\n\r\nPUT /second HTTP/1.1\r\nHost: x\r\n"
				+ "Transfer-Encoding: xchunked\r\n\r\n" + BODY);
		assertThat(answer).startsWith("HTTP/1.1 200 ").contains("got 0HTTP/1.1 501 ");
		assertThat(this.handled).containsExactly("GET /first 0");
	}

	/**
	 * Sends one request (or several) and reads until the server closes the connection: a
	 * refused request closes it, an accepted one asks for that with
	 * {@code Connection: close}.
	 */
	private String exchange(String request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.server.port())) {
			socket.setSoTimeout(30_000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			return UntilClosed.read(socket.getInputStream());
		}
	}

}
