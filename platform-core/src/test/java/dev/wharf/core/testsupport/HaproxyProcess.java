package dev.wharf.core.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
public final class HaproxyProcess extends ServerProcess {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path config;

	private final int port;

	private HaproxyProcess(Path config, int port) {
		super("haproxy");
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
		Path log = folder.resolve("haproxy.log");
		haproxy.awaitStart(
				new ProcessBuilder(executable.toString(), "-db", "-f", config.toString()).redirectErrorStream(true)
					.redirectOutput(log.toFile())
					.start(),
				START_TIMEOUT, listening(port), () -> readQuietly(log));
		return haproxy;
	}

	/** The port clients connect to. */
	public int port() {
		return this.port;
	}

	/** Its configuration file. */
	public Path config() {
		return this.config;
	}

}
