package dev.wharf.core.web;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link KeepAliveReadResumer} works around a Reactor Netty bug fixed in 1.3.8. This test
 * fails once 1.3.8 or later is on the classpath, so the workaround is removed (with this
 * test) instead of outliving its reason.
 */
class KeepAliveWorkaroundNeededTests {

	@Test
	void reactorNettyIsOlderThanTheReleaseThatFixedTheKeepAliveStall() throws IOException, URISyntaxException {
		String version = bundleVersion();
		assertThat(isBefore(version, 1, 3, 8))
			.as("Reactor Netty %s fixes the keep-alive read stall: remove KeepAliveReadResumer and this test", version)
			.isTrue();
	}

	@Test
	void versionsCompareNumerically() {
		assertThat(isBefore("1.3.7.RELEASE", 1, 3, 8)).isTrue();
		assertThat(isBefore("1.2.14", 1, 3, 8)).isTrue();
		assertThat(isBefore("1.3.8.RELEASE", 1, 3, 8)).isFalse();
		assertThat(isBefore("1.3.10", 1, 3, 8)).isFalse();
		assertThat(isBefore("2.0.0-M1", 1, 3, 8)).isFalse();
	}

	private static String bundleVersion() throws IOException, URISyntaxException {
		Path jar = Path.of(HttpServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		try (JarFile file = new JarFile(jar.toFile())) {
			String version = file.getManifest().getMainAttributes().getValue("Bundle-Version");
			assertThat(version).as("Bundle-Version of %s", jar).isNotBlank();
			return version;
		}
	}

	private static boolean isBefore(String version, int... fixed) {
		String[] parts = version.split("[.-]");
		for (int i = 0; i < fixed.length; i++) {
			int part = Integer.parseInt(parts[i]);
			if (part != fixed[i]) {
				return part < fixed[i];
			}
		}
		return false;
	}

}
