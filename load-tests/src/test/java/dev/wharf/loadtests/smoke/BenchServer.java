package dev.wharf.loadtests.smoke;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.wharf.loadtests.harness.Fixtures;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * The packaged jar started the way {@code load-tests/run.sh} starts it: the load tests'
 * configuration ({@code load-tests/config/wharf-bench.yaml} plus the memory build-cache
 * overlay), the fixtures, a random password for the {@code bench} user, free ports; then
 * it waits for {@code /actuator/health}. Closing it stops the process (SIGTERM, then
 * SIGKILL after a timeout).
 *
 * <p>
 * Not thread-safe; one per test class.
 */
final class BenchServer implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private final Process process;

	private final Path log;

	final String password = UUID.randomUUID().toString();

	final int httpPort;

	final int ftpPort;

	final int managementPort;

	private BenchServer(Path java, Path jar, Path config, Path dir) throws IOException, InterruptedException {
		Fixtures.create(dir);
		this.httpPort = freePort();
		this.ftpPort = freePort();
		this.managementPort = freePort();
		this.log = dir.resolve("wharf.log");
		List<String> command = new ArrayList<>(
				List.of(java.toString(), "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(),
						"--spring.config.additional-location=file:" + config.resolve("wharf-bench.yaml") + ",file:"
								+ config.resolve("wharf-bench-cache-memory.yaml")));
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.log.toFile());
		Map<String, String> env = builder.environment();
		env.put("WHARF_BENCH_DIR", dir.toString());
		env.put("WHARF_BENCH_HTTP_PORT", Integer.toString(this.httpPort));
		env.put("WHARF_BENCH_FTP_PORT", Integer.toString(this.ftpPort));
		env.put("WHARF_BENCH_MANAGEMENT_PORT", Integer.toString(this.managementPort));
		// A free port per transfer: one shared port serves one waiting session per client
		// address at a time, and
		// the FTP smoke's clients all come from 127.0.0.1.
		env.put("WHARF_BENCH_FTP_PASSIVE_PORTS", "0");
		env.put("WHARF_BENCH_PASSWORD_HASH", hash(java, jar, this.password));
		this.process = builder.start();
	}

	/**
	 * Starts the jar and waits until it is healthy.
	 * @param jar platform-app/target/wharf.jar
	 * @param config the load tests' configuration folder
	 * @param dir an empty working folder
	 * @return the running server
	 * @throws Exception when it does not start
	 */
	static BenchServer start(Path jar, Path config, Path dir) throws Exception {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		BenchServer server = new BenchServer(java, jar, config, dir);
		try {
			server.awaitHealthy();
			return server;
		}
		catch (Exception | AssertionError ex) {
			server.close();
			throw ex;
		}
	}

	String baseUrl() {
		return "http://127.0.0.1:" + this.httpPort;
	}

	/**
	 * A metric's value from the management port's {@code /actuator/prometheus}.
	 * @param series the series as Prometheus names it, such as
	 * {@code wharf_filemanager_thumbnails_total{source="made"}}
	 * @return its value, or 0 if there is no such series
	 * @throws Exception if the endpoint does not answer
	 */
	double metric(String series) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		HttpResponse<String> metrics = http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.managementPort + "/actuator/prometheus"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		if (metrics.statusCode() != 200) {
			throw new IllegalStateException("/actuator/prometheus answered " + metrics.statusCode());
		}
		String name = series.substring(0, series.indexOf('{'));
		String labels = series.substring(series.indexOf('{') + 1, series.length() - 1);
		return metrics.body()
			.lines()
			.filter(line -> line.startsWith(name + "{") && line.contains(labels))
			.mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	String log() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	private void awaitHealthy() throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
			.timeout(Duration.ofSeconds(5))
			.build();
		try {
			// Not listening yet fails with an IOException.
			await().atMost(STARTUP)
				.pollInterval(Duration.ofMillis(250))
				.ignoreExceptionsInstanceOf(IOException.class)
				.until(() -> !this.process.isAlive()
						|| http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
		}
		catch (ConditionTimeoutException late) {
			throw new AssertionError("Wharf did not become healthy within " + STARTUP + ":\n" + log());
		}
		if (!this.process.isAlive()) {
			throw new AssertionError("Wharf exited with " + this.process.exitValue() + ":\n" + log());
		}
	}

	/** The {@code {bcrypt}} hash from the jar's own {@code hash-password} command. */
	private static String hash(Path java, Path jar, String password) throws IOException, InterruptedException {
		Process hashing = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "hash-password").start();
		try (OutputStream in = hashing.getOutputStream()) {
			in.write((password + "\n").getBytes(StandardCharsets.UTF_8));
		}
		String out = new String(hashing.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (!hashing.waitFor(60, TimeUnit.SECONDS) || hashing.exitValue() != 0 || !out.startsWith("{bcrypt}")) {
			hashing.destroyForcibly();
			throw new IllegalStateException("hash-password failed: " + out
					+ new String(hashing.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
		}
		return out;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
