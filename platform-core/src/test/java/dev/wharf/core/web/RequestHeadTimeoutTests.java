package dev.wharf.core.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RequestHeadTimeout} on a bare Reactor Netty server, over raw sockets:
 * a head that does not arrive in time gets 408 and a close; a keep-alive connection
 * waiting between requests is not the head timeout's business; a response slower than the
 * timeout is never cut by it. The whole application's slowloris tests are platform-app's
 * {@code dev.wharf.app.hostile.SlowClientTests}.
 */
class RequestHeadTimeoutTests {

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	DisposableServer server;

	/** Counted down each time the handler starts on a request. */
	final Semaphore handled = new Semaphore(0);

	@AfterEach
	void dispose() {
		if (this.server != null) {
			this.server.disposeNow();
		}
	}

	private void start(Duration responseDelay) {
		start(responseDelay, TIMEOUT);
	}

	private void start(Duration responseDelay, Duration timeout) {
		// With the keep-alive fix every Wharf server has: without it Reactor Netty 1.3.7
		// may stop reading a
		// connection whose response completes on another thread (see
		// KeepAliveReadResumer).
		HttpServer server = KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0));
		this.server = RequestHeadTimeout.install(server, timeout).handle((request, response) -> {
			this.handled.release();
			return response.sendString(Mono.just("ok").delayElement(responseDelay));
		}).bindNow(Duration.ofSeconds(10));
	}

	@Test
	void anIncompleteHeadGets408AndIsClosed() throws Exception {
		start(Duration.ZERO);
		try (Socket socket = connect()) {
			socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
			String answer = UntilClosed.read(socket.getInputStream());
			assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout\r\n").contains("Connection: close");
		}
	}

	@Test
	void aKeepAliveConnectionMayWaitLongerBetweenRequests() throws Exception {
		start(Duration.ZERO);
		try (Socket socket = connect()) {
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			for (int i = 0; i < 2; i++) {
				out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				assertThat(readResponse(in)).startsWith("HTTP/1.1 200 ");
				// Three times the head timeout without a byte: only the idle timeout
				// (none here) may close it.
				assertSilentFor(socket, TIMEOUT.multipliedBy(3));
			}
		}
	}

	@Test
	void aHeadStartedLateInTheTimersPeriodGetsItsWholeTime() throws Exception {
		// One timer per connection, set at the first head: the second head starts 60 %
		// into that timer's period
		// and completes 60 % of the timeout after its own start, after the timer first
		// fired.
		Duration timeout = Duration.ofSeconds(2);
		start(Duration.ZERO, timeout);
		try (Socket socket = connect()) {
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(readResponse(in)).startsWith("HTTP/1.1 200 ");
			assertSilentFor(socket, timeout.multipliedBy(6).dividedBy(10));
			out.write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
			assertSilentFor(socket, timeout.multipliedBy(6).dividedBy(10));
			out.write("Host: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(readResponse(in)).startsWith("HTTP/1.1 200 ");
			// The timer set itself again for the second head; a third that stalls still
			// gets 408.
			out.write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(UntilClosed.read(in)).startsWith("HTTP/1.1 408 Request Timeout\r\n");
		}
	}

	@Test
	void aHeadStalledBehindASlowResponseIsAnsweredAfterIt() throws Exception {
		start(TIMEOUT.multipliedBy(3));
		try (Socket socket = connect()) {
			OutputStream out = socket.getOutputStream();
			out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			// Once the first request is read (so the next bytes come in a read of their
			// own: a partial head
			// read together with the end of the previous request stays in the codec,
			// where only the idle
			// timeout sees it), a pipelined head that stops half-way while the first
			// response is being made.
			assertThat(this.handled.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
			out.write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
			String answer = UntilClosed.read(socket.getInputStream());
			assertThat(answer).startsWith("HTTP/1.1 200 ").contains("\r\n\r\nokHTTP/1.1 408 Request Timeout\r\n");
		}
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket("127.0.0.1", this.server.port());
		socket.setSoTimeout(30_000);
		return socket;
	}

	/**
	 * Lets time pass on a connection, during which the server sends nothing and keeps it
	 * open.
	 * @param socket the connection
	 * @param duration how long
	 */
	private static void assertSilentFor(Socket socket, Duration duration) throws IOException {
		int timeout = socket.getSoTimeout();
		socket.setSoTimeout(50);
		AtomicBoolean spoke = new AtomicBoolean();
		try {
			await("nothing from the server, not even a close").pollInSameThread()
				.during(duration)
				.atMost(duration.plusSeconds(2))
				.until(() -> !spoke.get() && silent(socket, spoke));
		}
		finally {
			socket.setSoTimeout(timeout);
		}
	}

	private static boolean silent(Socket socket, AtomicBoolean spoke) throws IOException {
		try {
			socket.getInputStream().read();
			spoke.set(true);
			return false;
		}
		catch (SocketTimeoutException nothing) {
			return true;
		}
	}

	/** Reads one small response with a Content-Length. */
	private static String readResponse(InputStream in) throws IOException {
		StringBuilder text = new StringBuilder();
		while (!text.toString().contains("\r\n\r\n")) {
			int b = in.read();
			assertThat(b).as("connection still open").isNotNegative();
			text.append((char) b);
		}
		String head = text.toString().toLowerCase(java.util.Locale.ROOT);
		int start = head.indexOf("content-length:") + "content-length:".length();
		int length = Integer.parseInt(head.substring(start, head.indexOf("\r\n", start)).trim());
		text.append(new String(in.readNBytes(length), StandardCharsets.ISO_8859_1));
		return text.toString();
	}

}
