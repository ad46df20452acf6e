package dev.wharf.app.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JVM profile files of platform-app ({@code src/main/jvm/<profile>.options} and
 * {@code .env}), read by the rule of their README: one entry per line, {@code #} starts a
 * comment.
 */
final class JvmProfileFiles {

	static final Path DIRECTORY = Path.of("src/main/jvm").toAbsolutePath();

	private JvmProfileFiles() {
	}

	/** The JVM options of a profile such as {@code p96}. */
	static List<String> options(String profile) throws IOException {
		return entries(DIRECTORY.resolve(profile + ".options"));
	}

	/** The environment variables of a profile, as {@code NAME=value}. */
	static List<String> environment(String profile) throws IOException {
		return entries(DIRECTORY.resolve(profile + ".env"));
	}

	private static List<String> entries(Path file) throws IOException {
		return Files.readAllLines(file)
			.stream()
			.map((line) -> line.replaceFirst("(^|\\s)#.*$", "").strip())
			.filter((line) -> !line.isEmpty())
			.toList();
	}

}
