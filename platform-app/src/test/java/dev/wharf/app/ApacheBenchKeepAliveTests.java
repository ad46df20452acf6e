package dev.wharf.app;

import java.nio.file.Path;

import dev.wharf.core.testsupport.ApacheBench;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The real {@code ab -k} (Apache Bench, the tool behind the published tables) against
 * Wharf: it must finish with every request on kept-alive connections and none failed. A
 * bounded run: 2,000 requests.
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
		ApacheBench.keepAlive("http://127.0.0.1:" + this.port + "/actuator/health/liveness", 10, 2000);
	}

}
