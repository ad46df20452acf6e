package dev.wharf.app.hostile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slowloris (a request head trickled a byte at a time, each byte well within the idle
 * timeout) and stalled bodies, on every kind of endpoint of the one HTTP server: the file
 * manager (WebFlux), the build cache and a static site (Reactor Netty routes ahead of
 * WebFlux; the static server has no port of its own). The head timeout answers 408 and
 * closes; the body timeout closes; nothing is stored; other clients are served meanwhile.
 */
class SlowClientTests extends HostileServerTestBase {

	/**
	 * Longer than the head timeout by far: a server without one would still be waiting.
	 */
	private static final Duration TRICKLE_FOR = Duration.ofSeconds(20);

	@ParameterizedTest
	@ValueSource(strings = { "/api/files/ls?path=/data/", "/cache/some-key", "/static/hello.txt" })
	void aTrickledHeadGets408AndIsClosedWhileOthersAreServed(String target) throws Exception {
		try (RawHttp slow = RawHttp.open(this.port)) {
			// One normal request first: the connection is a kept-alive one when the
			// trickle starts.
			assertThat(slow.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").read().status()).isLessThan(500);
			slow.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n");
			long start = System.nanoTime();
			byte[] header = "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"
				.getBytes(StandardCharsets.US_ASCII);
			boolean closed = false;
			int sent = 0;
			// One byte every 300 ms: Reactor Netty's idle timeout (3 s here) would never
			// fire.
			while (!closed && !slow.hasAnswer() && System.nanoTime() - start < TRICKLE_FOR.toNanos()) {
				try {
					slow.send(new byte[] { header[sent++ % header.length] });
				}
				catch (IOException ex) {
					closed = true;
				}
				if (!closed && sent == 3) {
					// Meanwhile another client is served.
					serverStillServes();
				}
				// A client too slow on purpose: a byte every 300 ms.
				Thread.sleep(300);
			}
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			RawHttp.Response answer = slow.read();
			assertThat(answer.status()).isEqualTo(408);
			assertThat(answer.header("connection")).isEqualTo("close");
			assertThat(slow.closedWithin(RawHttp.PATIENCE)).isTrue();
			assertThat(took).isLessThan(TRICKLE_FOR);
		}
		serverStillServes();
	}

	@ParameterizedTest
	@ValueSource(strings = { "save", "cache", "login" })
	void aStalledBodyIsClosedAndNothingIsStored(String endpoint) throws Exception {
		String name = unique("stalled");
		String head = switch (endpoint) {
			case "save" -> "POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nCookie: " + alice()
					+ "\r\nX-Requested-With: XmlHttpRequest\r\n";
			case "cache" -> "PUT /cache/" + name + " HTTP/1.1\r\nAuthorization: " + ciAuthorization() + "\r\n";
			default -> "POST /api/session HTTP/1.1\r\nContent-Type: application/json\r\n";
		};
		try (RawHttp slow = RawHttp.open(this.port)) {
			// Announces 100 000 bytes, sends 1 000 and stalls, as a client whose network
			// died would.
			slow.send(head + "Host: x\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(1000));
			long start = System.nanoTime();
			assertThat(slow.closedWithin(RawHttp.PATIENCE)).as("closed by the body timeout").isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start))
				.isGreaterThanOrEqualTo(BODY_TIMEOUT.minusMillis(500));
		}
		nothingStoredOrHalfWritten(name);
		serverStillServes();
	}

}
