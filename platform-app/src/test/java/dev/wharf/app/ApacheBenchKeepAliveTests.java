package dev.wharf.app;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.Requirements;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real {@code ab -k} (Apache Bench, the tool behind the published tables) against Wharf: it must
 * finish with every request on kept-alive connections and none failed. A bounded run: 2,000 requests.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ApacheBenchKeepAliveTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
	}

	@LocalServerPort
	int port;

	@Test
	void abKeepAliveCompletesWithoutFailures() throws Exception {
		Path ab = Requirements.requireExecutable("ab", "apache2-utils");
		Process process = new ProcessBuilder(ab.toString(), "-k", "-c", "10", "-n", "2000", "-s", "10",
				"http://127.0.0.1:" + this.port + "/actuator/health/liveness")
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		assertThat(output).contains("Complete requests:      2000")
			.contains("Failed requests:        0")
			.contains("Keep-Alive requests:    2000");
	}

}
