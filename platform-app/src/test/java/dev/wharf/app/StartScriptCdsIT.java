package dev.wharf.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/wharf --cds} extracts the jar again when its content changes, also when its
 * modification time does not: the build is reproducible, so every new jar carries the
 * same fixed time, and the previous extraction (and the class-data archive made from it)
 * must not outlive the classes it was made from.
 */
class StartScriptCdsIT {

	@TempDir
	Path root;

	@Test
	void aNewJarWithTheSameTimeIsExtractedAgain() throws Exception {
		Path jar = this.root.resolve("wharf.jar");
		Files.copy(Path.of("target/wharf.jar"), jar);
		FileTime time = Files.getLastModifiedTime(jar);
		Path cds = this.root.resolve("cds");

		assertThat(dryRun(jar, cds)).contains("wharf: extracting");
		assertThat(dryRun(jar, cds)).as("the same jar: the extraction is reused").doesNotContain("wharf: extracting");

		Path rebuilt = this.root.resolve("rebuilt.jar");
		addEntry(jar, rebuilt, "META-INF/rebuilt.txt");
		Files.move(rebuilt, jar, StandardCopyOption.REPLACE_EXISTING);
		Files.setLastModifiedTime(jar, time);
		assertThat(dryRun(jar, cds)).as("another jar with the same time").contains("wharf: extracting");
	}

	private static String dryRun(Path jar, Path cds) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(List.of("bash", Path.of("bin/wharf").toAbsolutePath().toString(),
				"--profile", "p128", "--cds", "--java", System.getProperty("java.home"), "--dry-run"))
			.redirectErrorStream(true);
		builder.environment().putAll(Map.of("WHARF_JAR", jar.toString(), "WHARF_CDS_DIR", cds.toString()));
		Process script = builder.start();
		String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(script.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(script.exitValue()).as(output).isZero();
		return output;
	}

	/**
	 * Copies the jar with one more entry, keeping every entry's bytes and method (nested
	 * jars stay stored).
	 */
	private static void addEntry(Path from, Path to, String name) throws IOException {
		try (JarFile source = new JarFile(from.toFile());
				JarOutputStream target = new JarOutputStream(Files.newOutputStream(to))) {
			for (JarEntry entry : Collections.list(source.entries())) {
				JarEntry copy = new JarEntry(entry);
				copy.setCompressedSize(-1);
				target.putNextEntry(copy);
				try (InputStream in = source.getInputStream(entry)) {
					in.transferTo(target);
				}
				target.closeEntry();
			}
			target.putNextEntry(new JarEntry(name));
			target.write("rebuilt\n".getBytes(StandardCharsets.UTF_8));
			target.closeEntry();
		}
	}

}
