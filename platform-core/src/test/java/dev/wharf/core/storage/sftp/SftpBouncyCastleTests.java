package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.OpenSshServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BouncyCastle is registered only for a server that agrees to ChaCha20-Poly1305: each
 * case lists a folder in a JVM of its own (a provider, once registered, stays for the
 * life of the process) and reads that JVM's class-loading log.
 */
class SftpBouncyCastleTests {

	private static final String PROVIDER = " org.bouncycastle.jce.provider.BouncyCastleProvider ";

	@TempDir
	Path temp;

	@Test
	void aServerOfferingAesGcmIsServedWithoutBouncyCastle() throws Exception {
		String output = listInAJvmOfItsOwn(List.of());
		assertThat(output).contains("probe listed 2 entries").doesNotContain(PROVIDER);
	}

	@Test
	void aServerOfferingOnlyChaCha20Poly1305IsServedWithBouncyCastle() throws Exception {
		String output = listInAJvmOfItsOwn(List.of("Ciphers chacha20-poly1305@openssh.com"));
		assertThat(output).contains("probe listed 2 entries", PROVIDER);
	}

	private String listInAJvmOfItsOwn(List<String> settings) throws IOException, InterruptedException {
		Path root = Files.createDirectories(this.temp.resolve("root"));
		Files.writeString(root.resolve("a.txt"), "a");
		Files.createDirectories(root.resolve("folder"));
		try (OpenSshServer server = OpenSshServer.start(Files.createDirectories(this.temp.resolve("sshd")), settings)) {
			List<String> command = new ArrayList<>(
					List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xlog:class+load=info",
							"-cp", System.getProperty("java.class.path"), SftpClassLoadProbe.class.getName()));
			for (Map.Entry<String, String> property : SftpTestMounts.keyLogin(server, root).entrySet()) {
				command.add(property.getKey() + "=" + property.getValue());
			}
			Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(java.exitValue()).as(output).isZero();
			return output;
		}
	}

}
