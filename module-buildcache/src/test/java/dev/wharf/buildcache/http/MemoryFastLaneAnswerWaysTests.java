package dev.wharf.buildcache.http;

import java.nio.file.Path;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AbstractAnswerWaysTests} on a memory mount, whose entries are read at once, on
 * the fast lane.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class MemoryFastLaneAnswerWaysTests extends AbstractAnswerWaysTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		properties(registry, temp, true, true);
	}

	@Override
	boolean atHand() {
		return true;
	}

	@Override
	boolean fastLane() {
		return true;
	}

}
