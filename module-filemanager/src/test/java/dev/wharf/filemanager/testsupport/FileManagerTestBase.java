package dev.wharf.filemanager.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.JvmTempFolder;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The file manager on a random port, shared by the test classes that extend this (one
 * context, started once). Mounts: {@code data} (local disk, with a canary file outside
 * its root), {@code scratch} (memory), {@code ro} (memory, read-only for alice),
 * {@code faulty} (reads of {@code unreadable*} fail) and {@code pass} (needs the user's
 * login). Users: alice (rights on every mount), bob ({@code data} read-only), carol
 * (build-cache role only). Tests use fresh names so they do not disturb each other.
 */
@SpringBootTest(classes = FileManagerTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class FileManagerTestBase {

	/** alice's password, also the one the {@code pass} mount's backend accepts. */
	public static final String ALICE_PASSWORD = PassthroughStorage.PASSWORD;

	/** bob's password. */
	public static final String BOB_PASSWORD = "bob-password";

	/** carol's password. */
	public static final String CAROL_PASSWORD = "carol-password";

	/** The largest upload the test server accepts. */
	public static final int MAX_UPLOAD = 2 * 1024 * 1024;

	/** Where resumable uploads are cut into chunks. */
	public static final int SEGMENT = 64 * 1024;

	/**
	 * The folder of this JVM's shared server: {@code data/} (the local mount),
	 * {@code outside/}, {@code state/}.
	 */
	protected static final Path ROOT = createRoot();

	/** A secret outside the local mount's root that no answer may ever contain. */
	protected static final String CANARY = "canary-" + UUID.randomUUID();

	private static final String[] HASHES = { PasswordHashing.hash(ALICE_PASSWORD), PasswordHashing.hash(BOB_PASSWORD),
			PasswordHashing.hash(CAROL_PASSWORD) };

	@LocalServerPort
	protected int port;

	protected Api api;

	@DynamicPropertySource
	static void fileManagerProperties(DynamicPropertyRegistry registry) {
		registry.add("wharf.state-dir", () -> ROOT.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> ROOT.resolve("data").toString());
		registry.add("wharf.storage.mounts.scratch.type", () -> "memory");
		registry.add("wharf.storage.mounts.scratch.max-size", () -> "32MB");
		registry.add("wharf.storage.mounts.ro.type", () -> "memory");
		registry.add("wharf.storage.mounts.faulty.type", () -> "faulty");
		registry.add("wharf.storage.mounts.pass.type", () -> "passthrough");
		user(registry, 0, "alice", "user", "data:rw", "scratch:rw", "ro:ro", "faulty:rw", "pass:rw");
		user(registry, 1, "bob", "user", "data:ro");
		user(registry, 2, "carol", "cache-reader", "data:rw");
		registry.add("wharf.filemanager.max-upload-size", () -> MAX_UPLOAD + "B");
		registry.add("wharf.filemanager.uploads.segment-size", () -> SEGMENT + "B");
		registry.add("wharf.filemanager.max-concurrent-zips", () -> "2");
		// Below what any test JVM's heap allows (a quarter of it shared by the threads),
		// so answers do not vary.
		registry.add("wharf.filemanager.thumbnails.max-decoded-size", () -> "16MB");
		// As behind a TLS-terminating proxy: X-Forwarded-Proto says whether the client
		// used https.
		registry.add("server.forward-headers-strategy", () -> "framework");
	}

	private static void user(DynamicPropertyRegistry registry, int index, String name, String role, String... mounts) {
		String prefix = "wharf.security.users[" + index + "].";
		registry.add(prefix + "name", () -> name);
		registry.add(prefix + "password", () -> HASHES[index]);
		registry.add(prefix + "roles", () -> role);
		for (String mount : mounts) {
			String[] parts = mount.split(":");
			registry.add(prefix + "mounts." + parts[0], () -> parts[1]);
		}
	}

	@BeforeEach
	void createClient() {
		this.api = new Api(this.port);
	}

	/** alice's session cookie. */
	protected String alice() {
		return this.api.login("alice", ALICE_PASSWORD);
	}

	/** A fresh name, so tests sharing the server do not collide. */
	protected static String unique(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private static Path createRoot() {
		Path root = JvmTempFolder.create("wharf-filemanager-tests");
		try {
			Files.createDirectories(root.resolve("data"));
			Files.createDirectories(root.resolve("outside"));
			return root;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Writes the canary outside the local mount's root (idempotent). */
	protected static void writeCanary() throws IOException {
		Files.writeString(ROOT.resolve("outside").resolve("secret.txt"), CANARY, StandardCharsets.UTF_8);
	}

}
