package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.testsupport.OpenSshServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The storage contract against the {@code sftp} backend and a real OpenSSH {@code sshd}
 * (one per class), plus a check after every test that no temporary file was left on the
 * sshd.server().
 */
class SftpStorageContractTests extends AbstractStorageContractTests {

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	private Path root;

	@Override
	protected Storage createStorage(Path tempDir) throws Exception {
		this.root = Files.createDirectory(tempDir.resolve("root"));
		return SftpTestMounts.create(SftpTestMounts.keyLogin(sshd.server(), this.root));
	}

	@Override
	protected long largeFileSize() {
		// Big enough that a buffered write would hold far more than 64 chunks; small
		// enough for a busy machine.
		return 16L * 1024 * 1024;
	}

	@Override
	protected boolean createLinkOutOfRoot(String name, String secret) throws Exception {
		Path outside = Files.writeString(this.tempDir.resolve("secret.txt"), secret);
		Files.createSymbolicLink(this.root.resolve(name), outside);
		return true;
	}

	@Override
	protected boolean createLink(String link, String target) throws Exception {
		Files.createSymbolicLink(this.root.resolve(link.substring(1)), Path.of(target));
		return true;
	}

	@Test
	void openSshOffersAtomicRenames() {
		assertThat(this.storage.capabilities()).contains(Capability.ATOMIC_WRITE, Capability.ATOMIC_MOVE)
			.doesNotContain(Capability.NATIVE_COPY, Capability.LOCAL_FILE);
	}

	@AfterEach
	void noTemporaryFileIsLeftOnTheServer() throws Exception {
		// Clean-up after a cancelled upload runs in the background: give it a moment.
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(temporaryFiles()).isEmpty());
	}

	private List<Path> temporaryFiles() throws IOException {
		if (this.root == null || !Files.isDirectory(this.root)) {
			return List.of();
		}
		try (Stream<Path> files = Files.walk(this.root)) {
			return files.filter(file -> file.getFileName().toString().startsWith(SftpStorage.TEMP_PREFIX)).toList();
		}
	}

}
