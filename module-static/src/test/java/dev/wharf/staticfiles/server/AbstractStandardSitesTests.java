package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.file.Path;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the test classes that share one server with {@link StandardSites} for all their
 * tests.
 */
abstract class AbstractStandardSitesTests {

	@TempDir
	static Path folder;

	static StaticTestServer server;

	@BeforeAll
	static void start() {
		server = StandardSites.start(folder);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	static Response get(String target, String... headers) throws IOException {
		return RawHttp.exchange(server.port(), "GET", target, headers);
	}

}
