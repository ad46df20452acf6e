package dev.wharf.app;

import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's run command, for real: {@code java -jar platform-app/target/wharf.jar} in
 * an empty folder, on every JDK Wharf supports that the machine has (17 and 25), ends
 * with health UP on 127.0.0.1, metrics on the management port's
 * {@code /actuator/prometheus} (not on the public port), a {@code data} folder and a
 * generated admin, and stops cleanly.
 */
class RunnableJarIT {

	@TempDir
	Path workDir;

	static Stream<Path> javaHomes() throws IOException {
		List<Path> homes = new ArrayList<>();
		homes.add(Path.of(System.getProperty("java.home")));
		Path temurin25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
		if (Files.isExecutable(temurin25.resolve("bin/java"))) {
			homes.add(temurin25);
		}
		return homes.stream();
	}

	@ParameterizedTest
	@MethodSource("javaHomes")
	void startsAnswersAndStops(Path javaHome) throws Exception {
		Path jar = Path.of("target/wharf.jar").toAbsolutePath();
		assertThat(jar).exists();
		int port = FreePorts.loopback();
		int managementPort = FreePorts.loopback();
		Path log = this.workDir.resolve("wharf.log");
		Process wharf = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-jar", jar.toString(),
				"--server.port=" + port, "--management.server.port=" + managementPort,
				// FTP is on by default (port 2121): free ports, so parallel builds cannot
				// collide.
				"--wharf.ftp.port=0", "--wharf.ftp.passive-ports=0")
			.directory(this.workDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
			String health = awaitHealth(http, port, wharf, log);
			assertThat(health).contains("\"status\":\"UP\"");
			HttpResponse<String> metrics = http.send(request(managementPort, "/actuator/prometheus"),
					HttpResponse.BodyHandlers.ofString());
			assertThat(metrics.statusCode()).isEqualTo(200);
			assertThat(metrics.body()).contains("jvm_memory_used_bytes").doesNotContain(this.workDir.toString());
			assertThat(
					http.send(request(port, "/actuator/prometheus"), HttpResponse.BodyHandlers.ofString()).statusCode())
				.as("no metrics on the public port")
				.isEqualTo(404);
			assertThat(this.workDir.resolve("data")).isDirectory();
			assertThat(this.workDir.resolve("state/initial-admin")).exists();
			assertThat(Files.readString(log)).contains("password: ")
				.contains("Netty started on port " + port)
				.contains("FTP server listening on 127.0.0.1:");
		}
		finally {
			wharf.destroy();
			boolean stopped = wharf.waitFor(30, TimeUnit.SECONDS);
			if (!stopped) {
				wharf.destroyForcibly();
			}
			assertThat(stopped).as("Wharf stops on SIGTERM").isTrue();
		}
		assertThat(Files.readString(log, StandardCharsets.UTF_8)).doesNotContain("ERROR");
	}

	private static String awaitHealth(HttpClient http, int port, Process wharf, Path log) throws Exception {
		AtomicReference<String> health = new AtomicReference<>();
		boolean healthy = Processes.awaitReady(wharf, Duration.ofSeconds(90), Duration.ofMillis(250), () -> {
			HttpResponse<String> response = http.send(request(port, "/actuator/health"),
					HttpResponse.BodyHandlers.ofString());
			health.set(response.body());
			return response.statusCode() == 200;
		});
		assertThat(wharf.isAlive()).as(() -> "Wharf exited: " + readQuietly(log)).isTrue();
		assertThat(healthy).as(() -> "Wharf did not become healthy: " + readQuietly(log)).isTrue();
		return health.get();
	}

	private static HttpRequest request(int port, String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(5))
			.build();
	}

	private static String readQuietly(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

}
