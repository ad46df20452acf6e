package dev.wharf.core.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link InitialAdmin}.
 */
class InitialAdminTests {

	@TempDir
	Path state;

	@Test
	void generatesAnAdminOncePrintsThePasswordOnceAndKeepsOnlyItsHash() throws Exception {
		ByteArrayOutputStream first = new ByteArrayOutputStream();
		ConfiguredUserDirectory directory = InitialAdmin.loadOrCreate(this.state,
				new PrintStream(first, true, StandardCharsets.UTF_8));
		Matcher printed = Pattern.compile("password: (\\S+)").matcher(first.toString(StandardCharsets.UTF_8));
		assertThat(printed.find()).isTrue();
		String password = printed.group(1);
		assertThat(password).hasSize(20);
		Path file = this.state.resolve(InitialAdmin.FILE_NAME);
		assertThat(Files.readString(file)).startsWith("{bcrypt}").doesNotContain(password);
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
		assertThat(directory.verify("admin", password).block()).satisfies(user -> assertThat(user.isAdmin()).isTrue());

		ByteArrayOutputStream second = new ByteArrayOutputStream();
		ConfiguredUserDirectory again = InitialAdmin.loadOrCreate(this.state,
				new PrintStream(second, true, StandardCharsets.UTF_8));
		assertThat(second.size()).isZero();
		assertThat(again.verify("admin", password).block()).isNotNull();
		assertThat(again.verify("admin", "guess").block()).isNull();
	}

	@Test
	void refusesAStateFileThatIsNotAHash() throws IOException {
		Files.writeString(this.state.resolve(InitialAdmin.FILE_NAME), "password123");
		assertThatThrownBy(() -> InitialAdmin.loadOrCreate(this.state, System.out)).isInstanceOf(IOException.class)
			.hasMessageNotContaining("password123");
	}

}
