package dev.wharf.app.hostile;

import java.io.IOException;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request body framed with a transfer coding other than one final {@code chunked} is
 * refused by every HTTP module alike, before the module sees it, over a raw socket: 501
 * for an unknown coding ({@code xchunked}: Netty read no body at all, and the build cache
 * stored an empty entry with 201), 400 for {@code chunked} not last; the connection
 * closes, the body is not read (nor taken for the next request) and nothing is stored. A
 * plain chunked body is still accepted everywhere.
 */
class TransferEncodingTests extends HostileServerTestBase {

	private static final String BODY = "hello";

	/**
	 * The body as it is sent after the head: chunked for the codings Netty frames as
	 * chunked, raw otherwise.
	 */
	private static String body(String codings) {
		return codings.toLowerCase().matches(".*\\bchunked\\b.*")
				? Integer.toHexString(BODY.length()) + "\r\n" + BODY + "\r\n0\r\n\r\n" : BODY;
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = { "xchunked|501", "gzip|501", "gzip, chunked|501", "chunked, gzip|400" })
	void theBuildCacheStoresNothing(String codings, int status) throws IOException {
		String key = unique("te");
		RawHttp.Response answer = refused(
				"PUT /cache/" + key + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\n", codings,
				status);
		assertThat(answer.text()).doesNotContain("Created");
		RawHttp.Response entry = RawHttp.exchange(this.port, "GET /cache/" + key
				+ " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\nConnection: close\r\n\r\n");
		assertThat(entry.status()).isEqualTo(404);
		nothingStoredOrHalfWritten(key);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = { "xchunked|501", "chunked, gzip|400" })
	void theFileManagerSavesNothing(String codings, int status) throws IOException {
		String name = unique("te-save");
		refused("POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie()
				+ "\r\nX-Requested-With: XmlHttpRequest\r\n", codings, status);
		nothingStoredOrHalfWritten(name);
	}

	@Test
	void aResumableUploadDoesNotMove() throws IOException {
		String name = unique("te-tus");
		RawHttp.Response created = RawHttp.exchange(this.port,
				"POST /api/files/upload?path=/data/" + name + " HTTP/1.1\r\n" + "Host: x\r\nCookie: " + cookie()
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\n"
						+ "Upload-Length: 5\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		String upload = created.header("location");
		refused("PATCH " + upload + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie()
				+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
				+ "Content-Type: application/offset+octet-stream\r\n", "xchunked", 501);
		try (RawHttp wire = RawHttp.open(this.port)) {
			RawHttp.Response state = wire
				.send("HEAD " + upload + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie()
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\n\r\n")
				.readHead();
			assertThat(state.status()).isEqualTo(200);
			assertThat(state.header("upload-offset")).isEqualTo("0");
		}
		nothingStoredOrHalfWritten(name);
	}

	@ParameterizedTest(name = "{0} {1}")
	@CsvSource(delimiter = '|', value = { "GET|/static/hello.txt", "PUT|/static/hello.txt", "GET|/actuator/health" })
	void staticSitesAndTheActuatorToo(String method, String target) throws IOException {
		refused(method + " " + target + " HTTP/1.1\r\nHost: x\r\n", "xchunked", 501);
	}

	@Test
	void aChunkedBodyIsStillAccepted() throws IOException {
		String key = unique("te-ok");
		try (RawHttp wire = RawHttp.open(this.port)) {
			RawHttp.Response stored = wire
				.send("PUT /cache/" + key + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization()
						+ "\r\nTransfer-Encoding: chunked\r\n\r\n" + body("chunked"))
				.read();
			assertThat(stored.status()).isEqualTo(201);
		}
		RawHttp.Response entry = RawHttp.exchange(this.port, "GET /cache/" + key
				+ " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\nConnection: close\r\n\r\n");
		assertThat(entry.text()).isEqualTo(BODY);
	}

	/**
	 * Sends a request head (without its blank line) with the codings and a body, and
	 * asserts the refusal: the status, and a close right after it with nothing more (no
	 * answer to the body's bytes).
	 */
	private RawHttp.Response refused(String head, String codings, int status) throws IOException {
		try (RawHttp wire = RawHttp.open(this.port)) {
			RawHttp.Response answer = wire.send(head + "Transfer-Encoding: " + codings + "\r\n\r\n" + body(codings))
				.read();
			assertThat(answer.status()).as(answer.text()).isEqualTo(status);
			assertThat(answer.header("connection")).isEqualToIgnoringCase("close");
			byte[] rest = wire.restUntilClosed(RawHttp.PATIENCE);
			assertThat(rest).as("closed after the answer").isNotNull().isEmpty();
			return answer;
		}
	}

	private String cookie() throws IOException {
		return aliceSession();
	}

}
