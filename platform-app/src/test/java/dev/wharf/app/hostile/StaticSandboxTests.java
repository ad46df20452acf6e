package dev.wharf.app.hostile;

import java.io.IOException;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A static site served by the same server and port as the file manager shares its origin:
 * by default its files carry {@code Content-Security-Policy: sandbox}, so an HTML page a
 * user uploaded to the published folder cannot call {@code /api/} with a visitor's
 * session. (Turning it off, the start-up warning and sites with a host of their own:
 * module-static's {@code SitesTests} and {@code SandboxTests}.)
 */
class StaticSandboxTests extends HostileServerTestBase {

	@Test
	void aSiteBesideTheFileManagerIsSandboxedByDefault() throws IOException {
		for (int i = 0; i < 2; i++) {
			RawHttp.Response page = RawHttp.exchange(this.port,
					"GET /static/hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
			assertThat(page.status()).isEqualTo(200);
			assertThat(page.header("content-security-policy")).isEqualTo("sandbox");
		}
	}

}
