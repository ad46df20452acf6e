package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.staticfiles.site.SharedOrigin;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A site that shares the file manager's origin sends every file with
 * {@code Content-Security-Policy: sandbox} (an HTML page uploaded to a published folder
 * would otherwise script the file manager with the visitor's session), on the regular
 * route and the fast lane alike; {@code sandbox: false} turns it off, and a server
 * without the file manager does not send it unless asked.
 */
class SandboxTests {

	private static final SharedOrigin FILE_MANAGER = new SharedOrigin(true, Map.of("data", List.of("bob")));

	@TempDir
	Path folder;

	@ParameterizedTest
	@ValueSource(strings = { "/static/page.html", "/static/small.txt", "/static/app.js" })
	void aSiteBesideTheFileManagerIsSandboxed(String target) throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder, FILE_MANAGER)) {
			// The first answer comes from the regular route, the second from the fast
			// lane's cache.
			for (int i = 0; i < 2; i++) {
				Response response = RawHttp.exchange(server.port(), "GET", target);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.header("content-security-policy")).isEqualTo("sandbox");
			}
			Response head = RawHttp.exchange(server.port(), "HEAD", target);
			assertThat(head.header("content-security-policy")).isEqualTo("sandbox");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "sites[0].sandbox=false", "sites[0].prefix=/static/" })
	void noSandboxWhenTurnedOffOrWithoutTheFileManager(String property) throws IOException {
		SharedOrigin origin = property.contains("sandbox") ? FILE_MANAGER : SharedOrigin.NONE;
		try (StaticTestServer server = StaticTestServer.local(this.folder, origin, property)) {
			for (int i = 0; i < 2; i++) {
				Response response = RawHttp.exchange(server.port(), "GET", "/static/page.html");
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.header("content-security-policy")).isNull();
			}
		}
	}

}
