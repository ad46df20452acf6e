package dev.wharf.loadtests.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code watchdog.sh}, which {@code run.sh} starts beside every Gatling run, against real
 * servers on 127.0.0.1: one that accepts connections and never answers is killed once the
 * limit has passed, one that answers only errors is left alone, and the watchdog ends
 * with the server it watches. Needs bash, curl, setsid and python3 (the harness does); a
 * missing one fails.
 */
class WatchdogTests {

	private static final Path WATCHDOG = Path.of("watchdog.sh").toAbsolutePath();

	/**
	 * Accepts every connection and holds it without a byte of answer, as a server at its
	 * memory limit.
	 */
	private static final String SILENT = """
			import socket
			s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
			print(s.getsockname()[1], flush=True)
			held = []
			while True:
			    held.append(s.accept()[0])
			""";

	/** Answers every request with 503: an answer, however unwelcome. */
	private static final String FAILING = """
			import http.server
			class H(http.server.BaseHTTPRequestHandler):
			    def do_GET(self):
			        self.send_error(503)
			    def log_message(self, *a):
			        pass
			s = http.server.HTTPServer(("127.0.0.1", 0), H)
			print(s.server_address[1], flush=True)
			s.serve_forever()
			""";

	private Process server;

	private Process watchdog;

	@AfterEach
	void stop() {
		for (Process p : new Process[] { this.watchdog, this.server }) {
			if (p != null) {
				p.destroyForcibly();
			}
		}
	}

	@Test
	void killsAServerThatGivesNoAnswerOnceTheLimitHasPassed(@TempDir Path dir) throws Exception {
		int port = startServer(SILENT);
		Path marker = dir.resolve("marker");
		long started = System.nanoTime();
		this.watchdog = startWatchdog(port, 2, marker);
		await().atMost(Duration.ofSeconds(30)).until(() -> !this.server.isAlive());
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(Files.readString(marker, StandardCharsets.UTF_8))
			.startsWith("no HTTP answer from http://127.0.0.1:" + port + "/ for ")
			.contains("(limit 2 s): killed");
		assertThat(this.watchdog.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.watchdog.exitValue()).isZero();
	}

	@Test
	void leavesAServerThatAnswersWithErrorsAloneAndEndsWithIt(@TempDir Path dir) throws Exception {
		int port = startServer(FAILING);
		Path marker = dir.resolve("marker");
		this.watchdog = startWatchdog(port, 2, marker);
		// Three times the limit, several probes each answered with 503.
		assertThat(this.server.waitFor(6, TimeUnit.SECONDS)).as("the server was killed").isFalse();
		assertThat(marker).doesNotExist();
		assertThat(this.watchdog.isAlive()).isTrue();
		this.server.destroy();
		assertThat(this.watchdog.waitFor(10, TimeUnit.SECONDS)).as("the watchdog ended with its server").isTrue();
		assertThat(marker).doesNotExist();
	}

	@Test
	void refusesALimitThatIsNotAWholeNumberOfSeconds(@TempDir Path dir) throws Exception {
		Process refused = new ProcessBuilder("bash", WATCHDOG.toString(), "http://127.0.0.1:9/", "1", "1m",
				dir.resolve("marker").toString())
			.redirectErrorStream(true)
			.start();
		assertThat(refused.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(refused.exitValue()).isEqualTo(2);
		assertThat(new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
			.contains("whole number");
		assertThat(dir.resolve("marker")).doesNotExist();
	}

	private int startServer(String script) throws IOException {
		try {
			this.server = new ProcessBuilder(List.of("setsid", "python3", "-c", script)).start();
		}
		catch (IOException ex) {
			throw new AssertionError("setsid and python3 are needed for this test (the harness runs them)", ex);
		}
		BufferedReader out = new BufferedReader(
				new InputStreamReader(this.server.getInputStream(), StandardCharsets.UTF_8));
		String port = out.readLine();
		assertThat(port).as("the test server's port").isNotNull().matches("\\d+");
		return Integer.parseInt(port);
	}

	private Process startWatchdog(int port, int seconds, Path marker) throws IOException {
		ProcessBuilder builder = new ProcessBuilder("bash", WATCHDOG.toString(), "http://127.0.0.1:" + port + "/",
				Long.toString(this.server.pid()), Integer.toString(seconds), marker.toString())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().put("WATCHDOG_INTERVAL", "0.5");
		builder.environment().put("WATCHDOG_PROBE_TIMEOUT", "1");
		return builder.start();
	}

}
