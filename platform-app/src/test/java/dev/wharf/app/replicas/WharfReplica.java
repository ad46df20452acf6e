package dev.wharf.app.replicas;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.Processes;
import org.jspecify.annotations.Nullable;

/**
 * One Wharf replica: the packaged jar ({@code target/wharf.jar}, as {@code java -jar}
 * runs it) in a process of its own on free ports, with the settings every replica of a
 * test shares. {@link #kill()} is {@code kill -9}; {@link #close()} stops it gracefully.
 * Not thread-safe.
 */
final class WharfReplica implements AutoCloseable {

	private final String name;

	private final List<String> command;

	private final Path log;

	private final int port;

	private final int managementPort;

	private @Nullable Process process;

	private WharfReplica(String name, List<String> command, Path log, int port, int managementPort) {
		this.name = name;
		this.command = command;
		this.log = log;
		this.port = port;
		this.managementPort = managementPort;
	}

	/**
	 * Starts a replica; {@link #awaitReady} waits until it serves.
	 * @param name its name, for messages and its log's file name
	 * @param folder where its log goes
	 * @param settings {@code --name=value} arguments every replica shares
	 * @return the starting replica
	 */
	static WharfReplica start(String name, Path folder, List<String> settings) throws IOException {
		Path jar = Path.of("target/wharf.jar").toAbsolutePath();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException(jar + " is missing: the integration tests run after 'package'");
		}
		int port = FreePorts.loopback();
		int managementPort = FreePorts.loopback();
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						// Small and quick to start: three replicas, the balancer, Redis
						// and the test share two cores.
						"-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xshare:auto",
						"-Dfile.encoding=UTF-8", "-jar", jar.toString(), "--server.port=" + port,
						"--management.server.port=" + managementPort, "--spring.main.banner-mode=off"));
		command.addAll(settings);
		WharfReplica replica = new WharfReplica(name, command, folder.resolve(name + ".log"), port, managementPort);
		replica.launch();
		return replica;
	}

	private void launch() throws IOException {
		this.process = new ProcessBuilder(this.command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
			.start();
	}

	/** Waits until readiness is UP on the public port. */
	void awaitReady(Duration timeout) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		Process running = this.process;
		if (running != null
				&& Processes.awaitReady(running, timeout, Duration.ofMillis(200),
						() -> http.send(HttpRequest
							.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/health/readiness"))
							.timeout(Duration.ofSeconds(2))
							.build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200)) {
			return;
		}
		if (running == null || !running.isAlive()) {
			throw new IllegalStateException(this.name + " exited: " + Files.readString(this.log));
		}
		throw new IllegalStateException(this.name + " did not become ready: " + Files.readString(this.log));
	}

	String name() {
		return this.name;
	}

	int port() {
		return this.port;
	}

	int managementPort() {
		return this.managementPort;
	}

	/** Its output so far. */
	String log() throws IOException {
		return Files.readString(this.log);
	}

	/** {@code kill -9}: the process ends at once, in the middle of whatever it does. */
	void kill() throws InterruptedException {
		Process running = this.process;
		if (running != null) {
			running.destroyForcibly();
			running.waitFor(30, TimeUnit.SECONDS);
		}
	}

	/** Stops it with SIGTERM (graceful), or kills it after 30 seconds. */
	@Override
	public void close() throws InterruptedException {
		Process running = this.process;
		if (running == null) {
			return;
		}
		running.destroy();
		if (!running.waitFor(30, TimeUnit.SECONDS)) {
			running.destroyForcibly();
			running.waitFor(10, TimeUnit.SECONDS);
		}
		this.process = null;
	}

}
