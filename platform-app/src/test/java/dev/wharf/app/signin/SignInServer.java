package dev.wharf.app.signin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.core.security.PasswordHashing;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * What every sign-in test's server has: a state folder and a local mount {@code data} in
 * a folder of the test's own, FTP on free ports, and one configured account,
 * {@code admin} (an admin, password {@value #ADMIN_PASSWORD}), beside the directory's or
 * provider's users.
 */
final class SignInServer {

	static final String ADMIN_PASSWORD = "local-admin-pw";

	private SignInServer() {
	}

	/**
	 * Adds the server's properties.
	 * @param registry the test's properties
	 * @param root the test's folder: {@code state/}, {@code data/} (created),
	 * {@code client/} for the clients
	 */
	static void configure(DynamicPropertyRegistry registry, Path root) throws IOException {
		Files.createDirectories(root.resolve("data"));
		registry.add("wharf.state-dir", () -> root.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> root.resolve("data").toString());
		registry.add("wharf.ftp.port", () -> "0");
		registry.add("wharf.ftp.passive-ports", () -> "0");
		String hash = PasswordHashing.hash(ADMIN_PASSWORD);
		registry.add("wharf.security.users[0].name", () -> "admin");
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "admin");
	}

}
