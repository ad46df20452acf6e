package dev.wharf.core.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A real {@code haproxy} on 127.0.0.1 and a free port, balancing HTTP requests over
 * several servers in round-robin, each request on its own (no stickiness, no cookie), the
 * way a Kubernetes Service or an ingress spreads replicas' traffic. It checks each
 * server's {@code /actuator/health/readiness} every 500 ms and takes a server out after
 * two failed checks; a request whose connection to a server fails is sent to another
 * ({@code option redispatch}), while one a server took and died on is answered with an
 * error, as by a Kubernetes Service, which retries nothing. Its configuration is written
 * to a file of its own ({@link #config()}). {@link #close()} stops it; a shutdown hook
 * kills it if the test JVM ends first. Published in platform-core's test-jar.
 *
 * <p>
 * Not thread-safe: one test drives it.
 */
public final class HaproxyProcess implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path config;

	private final int port;

	private final Thread killer = new Thread(this::stop, "haproxy-killer");

	private @Nullable Process process;

	private HaproxyProcess(Path config, int port) {
		this.config = config;
		this.port = port;
	}

	/**
	 * Starts haproxy in front of servers, failing (in CI) or skipping the test if it is
	 * missing.
	 * @param folder where its configuration and log go
	 * @param servers the servers' ports on 127.0.0.1
	 * @return the running balancer
	 */
	public static HaproxyProcess start(Path folder, List<Integer> servers) throws IOException, InterruptedException {
		Path executable = Requirements.requireExecutable("haproxy", "haproxy");
		int port = FreePorts.loopback();
		StringBuilder text = new StringBuilder("""
				global
				    maxconn 4096
				defaults
				    mode http
				    timeout connect 2s
				    timeout client 120s
				    timeout server 120s
				    timeout http-keep-alive 10s
				    retries 3
				    option redispatch
				    retry-on conn-failure
				frontend wharf
				    bind 127.0.0.1:%d
				    default_backend replicas
				backend replicas
				    balance roundrobin
				    option httpchk GET /actuator/health/readiness
				    http-check expect status 200
				""".formatted(port));
		for (int i = 0; i < servers.size(); i++) {
			text.append("    server replica")
				.append(i + 1)
				.append(" 127.0.0.1:")
				.append(servers.get(i))
				.append(" check inter 500ms fall 2 rise 2\n");
		}
		Path config = folder.resolve("haproxy.cfg");
		Files.writeString(config, text);
		HaproxyProcess haproxy = new HaproxyProcess(config, port);
		Runtime.getRuntime().addShutdownHook(haproxy.killer);
		haproxy.process = new ProcessBuilder(executable.toString(), "-db", "-f", config.toString())
			.redirectErrorStream(true)
			.redirectOutput(folder.resolve("haproxy.log").toFile())
			.start();
		if (Processes.awaitReady(haproxy.process, START_TIMEOUT, Duration.ofMillis(20), () -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
				return true;
			}
		})) {
			return haproxy;
		}
		if (!haproxy.process.isAlive()) {
			throw new IOException("haproxy exited with " + haproxy.process.exitValue() + ": "
					+ Files.readString(folder.resolve("haproxy.log")));
		}
		haproxy.close();
		throw new IOException("haproxy did not listen on port " + port);
	}

	/** The port clients connect to. */
	public int port() {
		return this.port;
	}

	/** Its configuration file. */
	public Path config() {
		return this.config;
	}

	/** Stops it. */
	public void stop() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		running.destroy();
		try {
			if (!running.waitFor(10, TimeUnit.SECONDS)) {
				running.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.killer);
		}
		catch (IllegalStateException shuttingDown) {
			// The hook runs anyway.
		}
	}

}
