package dev.wharf.app;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.wharf.core.security.PasswordHashing;
import org.jspecify.annotations.Nullable;

/**
 * {@code java -jar wharf.jar hash-password}: reads a password (from the terminal without
 * echo, twice; or the first line of standard input when piped) and prints the
 * {@code {bcrypt}} hash to put in {@code wharf.security.users[n].password}.
 */
final class HashPasswordCommand {

	static final String NAME = "hash-password";

	static final int MIN_LENGTH = 8;

	private HashPasswordCommand() {
	}

	static int run(@Nullable Console console, InputStream in, PrintStream out, PrintStream err) {
		char[] password;
		if (console != null) {
			password = console.readPassword("Password: ");
			char[] again = console.readPassword("Again: ");
			if (password == null || again == null || !Arrays.equals(password, again)) {
				err.println("The passwords do not match.");
				return 1;
			}
		}
		else {
			try {
				String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
				password = (line != null) ? line.toCharArray() : new char[0];
			}
			catch (IOException ex) {
				err.println("Cannot read the password: " + ex.getMessage());
				return 1;
			}
		}
		if (password.length < MIN_LENGTH) {
			err.println("A password needs at least " + MIN_LENGTH + " characters.");
			return 1;
		}
		out.println(PasswordHashing.hash(new String(password)));
		Arrays.fill(password, '\0');
		return 0;
	}

}
