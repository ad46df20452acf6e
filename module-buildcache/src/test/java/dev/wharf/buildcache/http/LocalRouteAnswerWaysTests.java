package dev.wharf.buildcache.http;

import java.nio.file.Path;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AbstractAnswerWaysTests} on a local mount, whose entries are read through the
 * storage's publishers, with the fast lane off (Reactor Netty's route).
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class LocalRouteAnswerWaysTests extends AbstractAnswerWaysTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		properties(registry, temp, false, false);
	}

	@Override
	boolean atHand() {
		return false;
	}

	@Override
	boolean fastLane() {
		return false;
	}

}
