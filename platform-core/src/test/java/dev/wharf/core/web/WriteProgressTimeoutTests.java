package dev.wharf.core.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.testsupport.RawHttp;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link WriteProgressTimeout} on a bare Reactor Netty server, over raw sockets
 * with a small receive buffer: a client that stops reading a streamed body or a file sent
 * with {@code sendfile} is closed after the timeout and the body's publisher is
 * cancelled; a client that reads slowly, pausing for less than the timeout, gets
 * everything however long it takes; a response slower to start than the timeout is never
 * cut. The whole application's: platform-app's
 * {@code dev.wharf.app.hostile.StalledDownloadTests}.
 */
class WriteProgressTimeoutTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	/**
	 * Far more than the socket buffers on both sides hold, so a client that stops reading
	 * stalls the server.
	 */
	private static final int STALLED_SIZE = 64 * 1024 * 1024;

	/** What a slow reader reads: a few times the timeout at its pace. */
	private static final int SLOW_SIZE = 12 * 1024 * 1024;

	private static final int CHUNK = 64 * 1024;

	@TempDir
	Path folder;

	DisposableServer server;

	final AtomicInteger closed = new AtomicInteger();

	final AtomicBoolean cancelled = new AtomicBoolean();

	@AfterEach
	void dispose() {
		if (this.server != null) {
			this.server.disposeNow();
		}
	}

	private void start() throws IOException {
		Path stalledFile = file("stalled.bin", STALLED_SIZE);
		Path slowFile = file("slow.bin", SLOW_SIZE);
		byte[] chunk = new byte[CHUNK];
		HttpServer server = KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0));
		this.server = WriteProgressTimeout.install(server, TIMEOUT, this.closed::incrementAndGet)
			.route(routes -> routes.get("/stream/{size}", (request, response) -> {
				int size = Integer.parseInt(request.param("size"));
				return response.header("Content-Length", Integer.toString(size))
					.send(Flux.range(0, size / CHUNK)
						.map(i -> Unpooled.wrappedBuffer(chunk))
						.doOnCancel(() -> this.cancelled.set(true)));
			})
				.get("/file/stalled",
						(request, response) -> response.header("Content-Length", Integer.toString(STALLED_SIZE))
							.sendFile(stalledFile))
				.get("/file/slow",
						(request, response) -> response.header("Content-Length", Integer.toString(SLOW_SIZE))
							.sendFile(slowFile))
				.get("/late",
						(request, response) -> response
							.sendString(Mono.just("late but fine").delayElement(TIMEOUT.multipliedBy(3).dividedBy(2)))))
			.bindNow(Duration.ofSeconds(10));
	}

	private Path file(String name, int size) throws IOException {
		Path file = this.folder.resolve(name);
		try (OutputStream out = Files.newOutputStream(file)) {
			byte[] block = new byte[1024 * 1024];
			for (int written = 0; written < size; written += block.length) {
				out.write(block, 0, Math.min(block.length, size - written));
			}
		}
		return file;
	}

	@Test
	void aClientThatStopsReadingAStreamIsClosedAndTheBodyCancelled() throws Exception {
		start();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.server.port(), 64 * 1024)) {
			long length = request(reader, "/stream/" + STALLED_SIZE);
			long stalledAt = System.nanoTime();
			await().atMost(Duration.ofSeconds(30)).until(() -> this.closed.get() == 1);
			assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).isGreaterThanOrEqualTo(TIMEOUT);
			await().atMost(Duration.ofSeconds(10)).untilTrue(this.cancelled);
			assertThat(reader.drain()).as("the body was cut").isLessThan(length);
		}
	}

	@Test
	void aClientThatStopsReadingAFileSentWithSendfileIsClosed() throws Exception {
		start();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.server.port(), 64 * 1024)) {
			long length = request(reader, "/file/stalled");
			await().atMost(Duration.ofSeconds(30)).until(() -> this.closed.get() == 1);
			assertThat(reader.drain()).as("the body was cut").isLessThan(length);
		}
	}

	@Test
	void aSlowButMovingReaderOfAStreamGetsEverything() throws Exception {
		start();
		assertSlowReaderGetsEverything("/stream/" + SLOW_SIZE);
	}

	@Test
	void aSlowButMovingReaderOfAFileSentWithSendfileGetsEverything() throws Exception {
		start();
		assertSlowReaderGetsEverything("/file/slow");
	}

	@Test
	void aResponseSlowerToStartThanTheTimeoutIsNotCut() throws Exception {
		start();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.server.port(), 64 * 1024)) {
			long length = request(reader, "/late");
			assertThat(new String(reader.body().readNBytes((int) length), StandardCharsets.US_ASCII))
				.isEqualTo("late but fine");
		}
		assertThat(this.closed).hasValue(0);
	}

	@Test
	void aZeroTimeoutLeavesTheServerAsItIs() {
		HttpServer server = HttpServer.create();
		assertThat(WriteProgressTimeout.install(server, Duration.ZERO, () -> {
		})).isSameAs(server);
	}

	@Test
	void aNegativeTimeoutIsRefusedNamingTheProperty() {
		assertThatThrownBy(
				() -> new HttpTimeoutProperties(Duration.ofSeconds(20), Duration.ofSeconds(60), Duration.ofSeconds(-1)))
			.isInstanceOf(InvalidConfigurationException.class)
			.hasMessageContaining("wharf.http.write-timeout");
	}

	private void assertSlowReaderGetsEverything(String target) throws Exception {
		long start = System.nanoTime();
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.server.port(), 1024 * 1024)) {
			// 256 KB, then a pause: about 2.5 MB/s, far slower than the server sends on
			// loopback, but fast enough
			// that the kernel, which takes more bytes only once a good part of its send
			// buffer drained (about 1 MB
			// of the 4 MB it grows to on loopback), takes some within each timeout.
			reader.readSlowly(request(reader, target), 256 * 1024, Duration.ofMillis(100));
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("slower than the timeout")
			.isGreaterThan(TIMEOUT.multipliedBy(2));
		assertThat(this.closed).hasValue(0);
	}

	/** Sends a GET and reads the response head; gives the announced length. */
	private static long request(RawHttp reader, String target) throws IOException {
		return reader.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").readHead().contentLength();
	}

}
