package dev.wharf.core.security;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The admin account Wharf makes when no user is configured, so a fresh install is usable
 * but never open: at first start it generates a random password, stores only its hash in
 * the state folder ({@value #FILE_NAME}, readable by the owner only) and prints the
 * password once on standard output. Later starts load the stored hash; configuring
 * {@code wharf.security.users} replaces the account.
 */
public final class InitialAdmin {

	/** The generated admin's name. */
	public static final String NAME = "admin";

	/** File in the state folder holding the generated admin's hash. */
	public static final String FILE_NAME = "initial-admin";

	private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

	private static final Log logger = LogFactory.getLog(InitialAdmin.class);

	private InitialAdmin() {
	}

	/**
	 * Loads the generated admin, generating it first if needed.
	 * @param stateDir the state folder
	 * @param console where to print a newly generated password
	 * @return a directory holding the admin
	 * @throws IOException if the state folder cannot be read or written
	 */
	public static ConfiguredUserDirectory loadOrCreate(Path stateDir, PrintStream console) throws IOException {
		Path file = stateDir.resolve(FILE_NAME);
		User admin = new User(NAME, EnumSet.of(Role.ADMIN), Map.of());
		if (Files.exists(file)) {
			String hash = Files.readString(file, StandardCharsets.UTF_8).trim();
			if (!PasswordHashing.isHash(hash)) {
				throw new IOException(
						file + " does not hold a password hash; delete it to generate a new admin password");
			}
			logger.info("No users are configured: using the generated account '" + NAME + "' (its password was "
					+ "printed at first start; delete " + file
					+ " to generate a new one, or configure wharf.security.users)");
			return ConfiguredUserDirectory.single(admin, hash);
		}
		String password = generatePassword();
		String hash = PasswordHashing.hash(password);
		Files.createDirectories(stateDir);
		Files.writeString(file, hash + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
				StandardOpenOption.WRITE);
		try {
			Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
		}
		catch (UnsupportedOperationException ex) {
			// Not a POSIX file system: the file holds only a hash.
		}
		console.println();
		console.println("Wharf: no users are configured, so an admin account was created.");
		console.println("    user:     " + NAME);
		console.println("    password: " + password);
		console.println("This password is shown only once. Its hash is in " + file.toAbsolutePath() + ".");
		console.println();
		console.flush();
		return ConfiguredUserDirectory.single(admin, hash);
	}

	private static String generatePassword() {
		SecureRandom random = new SecureRandom();
		StringBuilder password = new StringBuilder(20);
		for (int i = 0; i < 20; i++) {
			password.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return password.toString();
	}

}
