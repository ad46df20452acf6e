package dev.wharf.core.web;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KeepAliveReadResumer} and {@link Http10KeepAliveFilter}: back-to-back
 * keep-alive requests (HTTP/1.1, and HTTP/1.0 as {@code ab -k} sends them) to a WebFlux
 * handler that finishes on another thread, over a raw socket, must all be answered. (The
 * stall itself needs the full application's filter chain to show; platform-app's
 * {@code Http10KeepAliveTests} reproduces it on the health endpoint.)
 */
class KeepAliveTests {

	DisposableServer server;

	@AfterEach
	void dispose() {
		if (this.server != null) {
			this.server.disposeNow();
		}
	}

	@Test
	void keepAliveRequestsFinishingOffTheEventLoopNeverStall() throws IOException {
		// A WebFlux handler whose body is produced on a worker thread, as storage
		// handlers are.
		RouterFunction<ServerResponse> route = RouterFunctions.route(RequestPredicates.GET("/"),
				request -> ServerResponse.ok()
					.body(Mono.fromCallable(() -> "ok").subscribeOn(Schedulers.boundedElastic()), String.class));
		HttpHandler handler = WebHttpHandlerBuilder.webHandler(RouterFunctions.toWebHandler(route))
			.filter(new Http10KeepAliveFilter())
			.build();
		this.server = KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0))
			.handle(new ReactorHttpHandlerAdapter(handler))
			.bindNow(Duration.ofSeconds(10));
		assertThat(sequentialKeepAliveRequests(3000, "HTTP/1.1", "")).isEqualTo(3000);
		assertThat(sequentialKeepAliveRequests(3000, "HTTP/1.0", "Connection: keep-alive\r\n")).isEqualTo(3000);
	}

	private int sequentialKeepAliveRequests(int count, String version, String extraHeaders) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.server.port())) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			InputStream in = new BufferedInputStream(socket.getInputStream());
			byte[] request = ("GET / " + version + "\r\nHost: test\r\n" + extraHeaders + "\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			for (int i = 0; i < count; i++) {
				out.write(request);
				out.flush();
				try {
					readResponse(in);
				}
				catch (SocketTimeoutException stalled) {
					return i;
				}
			}
			return count;
		}
	}

	private static void readResponse(InputStream in) throws IOException {
		int contentLength = -1;
		StringBuilder line = new StringBuilder();
		while (true) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("closed");
			}
			if (b == '\n') {
				String header = line.toString().trim();
				if (header.isEmpty()) {
					break;
				}
				if (header.toLowerCase().startsWith("content-length:")) {
					contentLength = Integer.parseInt(header.substring(15).trim());
				}
				line.setLength(0);
			}
			else {
				line.append((char) b);
			}
		}
		assertThat(in.readNBytes(contentLength)).hasSize(contentLength);
	}

}
