package dev.wharf.core.storage.sftp;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.testsupport.OpenSshServer;
import dev.wharf.core.testsupport.Requirements;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Password logins, for the mount's own login and for passthrough (each Wharf user logs in
 * as themselves), against a real OpenSSH {@code sshd} that checks real system passwords.
 * Needs root and the two throwaway users that {@code .ci/run} creates
 * ({@link OpenSshServer#TEST_USERS}, locked and without a shell); the test gives them
 * random passwords for its run and locks them again afterwards.
 */
class SftpPasswordLoginTests {

	static final String ALICE = OpenSshServer.TEST_USERS.get(0);

	static final String BOB = OpenSshServer.TEST_USERS.get(1);

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	static Map<String, String> passwords = new LinkedHashMap<>();

	@TempDir
	Path temp;

	Path shared;

	@BeforeAll
	static void giveTheTestUsersPasswords() throws Exception {
		boolean root = "root".equals(System.getProperty("user.name"));
		boolean usersExist = OpenSshServer.TEST_USERS.stream()
			.allMatch(user -> Files.isDirectory(Path.of("/home", user)) && run("id", "-u", user) == 0);
		Requirements.require(root && usersExist,
				"root and the test users " + OpenSshServer.TEST_USERS + " (created by .ci/run)");
		SecureRandom random = new SecureRandom();
		StringBuilder input = new StringBuilder();
		for (String user : OpenSshServer.TEST_USERS) {
			byte[] bytes = new byte[12];
			random.nextBytes(bytes);
			String password = "Wh-" + HexFormat.of().formatHex(bytes);
			passwords.put(user, password);
			input.append(user).append(':').append(password).append('\n');
		}
		assertThat(runWithInput(input.toString(), "chpasswd")).isZero();
	}

	@AfterAll
	static void lockTheTestUsers() {
		for (String user : passwords.keySet()) {
			assertThat(run("usermod", "--password", "!", user)).isZero();
		}
	}

	@BeforeEach
	void createSharedRoot() throws Exception {
		// World-writable with the sticky bit, like /tmp: everyone may add files, only
		// owners may remove theirs.
		Files.setPosixFilePermissions(this.temp, PosixFilePermissions.fromString("rwxr-xr-x"));
		this.shared = Files.createDirectory(this.temp.resolve("shared"));
		assertThat(run("chmod", "1777", this.shared.toString())).isZero();
	}

	Map<String, String> passwordLogin(String user) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("host", sshd.server().host());
		properties.put("port", Integer.toString(sshd.server().port()));
		properties.put("username", user);
		properties.put("password", passwords.get(user));
		properties.put("host-key-fingerprint", sshd.server().hostKeyFingerprint());
		properties.put("root", this.shared.toString());
		return properties;
	}

	Map<String, String> passthrough() {
		Map<String, String> properties = passwordLogin(ALICE);
		properties.remove("username");
		properties.remove("password");
		properties.put("credentials", "passthrough");
		return properties;
	}

	static Credentials credentials(String user) {
		return new Credentials(user, passwords.get(user));
	}

	static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

	@Test
	void theMountLogsInWithItsPasswordAndARefusalIsTheBackendsFault() throws Exception {
		try (SftpStorage storage = SftpTestMounts.create(passwordLogin(ALICE))) {
			storage.write(path("/by-password.txt"), content("hello"), WriteOptions.replace()).block(TIMEOUT);
			assertThat(Files.getOwner(this.shared.resolve("by-password.txt")).getName()).isEqualTo(ALICE);
		}
		try (SftpStorage wrong = SftpTestMounts.create(passwordLogin(ALICE), "password",
				"not-" + passwords.get(ALICE))) {
			assertThatThrownBy(() -> wrong.stat(StoragePath.root()).block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("refused the mount's login")
				.hasMessageNotContaining(passwords.get(ALICE));
		}
	}

	@Test
	void permissionDeniedOnTheServerIsAccessDenied() throws Exception {
		Path foreign = Files.writeString(this.shared.resolve("root-only.txt"), "secret");
		Files.setPosixFilePermissions(foreign, PosixFilePermissions.fromString("rw-------"));
		try (SftpStorage storage = SftpTestMounts.create(passwordLogin(BOB))) {
			assertThatThrownBy(() -> bytes(storage.read(path("/root-only.txt"), ByteRange.all())))
				.isInstanceOf(AccessDeniedException.class)
				.hasMessage("Permission denied: /root-only.txt");
			assertThatThrownBy(() -> storage.delete(path("/root-only.txt"), false).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			assertThat(foreign).hasContent("secret");
		}
	}

	@Test
	void passthroughLogsInAsEachUserWithTheirOwnPassword() throws Exception {
		try (SftpStorage storage = SftpTestMounts.create(passthrough(), "idle-timeout", "2s")) {
			assertThat(storage.needsUserCredentials()).isTrue();
			write(storage, ALICE, "/alice.txt", "from alice");
			write(storage, BOB, "/bob.txt", "from bob");
			assertThat(Files.getOwner(this.shared.resolve("alice.txt")).getName()).isEqualTo(ALICE);
			assertThat(Files.getOwner(this.shared.resolve("bob.txt")).getName()).isEqualTo(BOB);

			Files.setPosixFilePermissions(this.shared.resolve("alice.txt"),
					PosixFilePermissions.fromString("rw-------"));
			assertThat(
					text(storage.read(path("/alice.txt"), ByteRange.all()).contextWrite(credentials(ALICE).context())))
				.isEqualTo("from alice");
			assertThatThrownBy(() -> bytes(
					storage.read(path("/alice.txt"), ByteRange.all()).contextWrite(credentials(BOB).context())))
				.isInstanceOf(AccessDeniedException.class);
			// The sticky folder lets only the owner remove a file.
			assertThatThrownBy(() -> storage.delete(path("/alice.txt"), false)
				.contextWrite(credentials(BOB).context())
				.block(TIMEOUT)).isInstanceOf(AccessDeniedException.class);

			assertThatThrownBy(() -> storage.stat(StoragePath.root()).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class)
				.hasMessageContaining("carries no user login");
			Credentials wrong = new Credentials(ALICE, "not-" + passwords.get(ALICE));
			assertThatThrownBy(() -> storage.stat(StoragePath.root()).contextWrite(wrong.context()).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class)
				.hasMessageContaining("refused your login")
				.hasMessageNotContaining(wrong.password());
			// Health needs no user: the server answers and proves its identity.
			storage.checkHealth().block(TIMEOUT);

			// Idle users' connections are closed, and the users forgotten, until they
			// come back.
			await().atMost(Duration.ofSeconds(60)).until(() -> storage.users() == 0 && storage.connections() == 0);
			assertThat(text(storage.read(path("/bob.txt"), ByteRange.all()).contextWrite(credentials(BOB).context())))
				.isEqualTo("from bob");
		}
	}

	@Test
	void aRelativeRootIsInsideEachUsersHomeFolder() throws Exception {
		Path home = Path.of("/home", BOB);
		try (SftpStorage storage = SftpTestMounts.create(passthrough(), "root", ".")) {
			FileEntry entry = storage.write(path("/wharf-home-test.txt"), content("home"), WriteOptions.replace())
				.contextWrite(credentials(BOB).context())
				.block(TIMEOUT);
			assertThat(entry.size()).isEqualTo(4);
			assertThat(home.resolve("wharf-home-test.txt")).hasContent("home");
			storage.delete(path("/wharf-home-test.txt"), false).contextWrite(credentials(BOB).context()).block(TIMEOUT);
			assertThat(home.resolve("wharf-home-test.txt")).doesNotExist();
		}
	}

	private static void write(SftpStorage storage, String user, String path, String text) {
		storage.write(path(path), content(text), WriteOptions.replace())
			.contextWrite(credentials(user).context())
			.block(TIMEOUT);
	}

	private static int run(String... command) {
		return runWithInput(null, command);
	}

	private static int runWithInput(String input, String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (input != null) {
				process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
			}
			process.getOutputStream().close();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return -1;
			}
			return process.exitValue();
		}
		catch (java.io.IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

}
