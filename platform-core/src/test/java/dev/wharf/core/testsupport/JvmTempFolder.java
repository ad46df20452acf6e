package dev.wharf.core.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.util.FileSystemUtils;

/**
 * A temporary folder that lives as long as the test JVM, for servers shared by several
 * test classes (one Spring context, cached across classes), where JUnit's per-class
 * {@code @TempDir} would be deleted under the running server. Deleted when the JVM exits,
 * best effort.
 */
public final class JvmTempFolder {

	private JvmTempFolder() {
	}

	/**
	 * Creates the folder.
	 * @param prefix the start of its name
	 * @return the folder, under the system's temporary folder
	 */
	public static Path create(String prefix) {
		try {
			Path root = Files.createTempDirectory(prefix);
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				try {
					FileSystemUtils.deleteRecursively(root);
				}
				catch (IOException ex) {
					// Best effort: the folder is under the system temp folder.
				}
			}, "wharf-test-temp-cleanup"));
			return root;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
