package dev.wharf.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import dev.wharf.core.security.PasswordHashing;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HashPasswordCommand}.
 */
class HashPasswordCommandTests {

	@Test
	void printsAHashOfThePipedPassword() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int exit = HashPasswordCommand.run(null, stdin("correct horse battery\n"), new PrintStream(out, true),
				System.err);
		assertThat(exit).isZero();
		String hash = out.toString(StandardCharsets.UTF_8).trim();
		assertThat(PasswordHashing.isHash(hash)).isTrue();
		assertThat(PasswordHashing.matches("correct horse battery", hash)).isTrue();
	}

	@Test
	void refusesAShortPassword() {
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int exit = HashPasswordCommand.run(null, stdin("short\n"), System.out, new PrintStream(err, true));
		assertThat(exit).isEqualTo(1);
		assertThat(err.toString(StandardCharsets.UTF_8)).contains("at least 8");
	}

	private static ByteArrayInputStream stdin(String text) {
		return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
	}

}
