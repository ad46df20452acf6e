package dev.wharf.core.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * What tests need from the machine (a real sshd, memcached, chromium, a tmpfs mount).
 * Under CI ({@code CI=true}, as {@code .ci/run} runs) a missing requirement fails the
 * test, because {@code .ci/run} installs everything; on a developer's machine it skips
 * the test with a message saying what to install.
 */
public final class Requirements {

	private static final List<String> SEARCH_PATH = List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
			"/usr/bin", "/sbin", "/bin");

	private Requirements() {
	}

	/** Whether the tests run under CI, where every requirement must be met. */
	public static boolean isCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

	/**
	 * Fails (under CI) or skips (elsewhere) unless a condition holds.
	 * @param met whether the requirement is met
	 * @param what what is missing and how to get it, such as "memcached (apt-get install
	 * memcached)"
	 */
	public static void require(boolean met, String what) {
		if (met) {
			return;
		}
		if (isCi()) {
			fail("Required for this test and missing in CI: " + what);
		}
		Assumptions.abort("Skipped: needs " + what);
	}

	/**
	 * Finds an executable on the PATH or in the usual system folders.
	 * @param name such as {@code sshd}
	 * @return its path, or empty
	 */
	public static Optional<Path> findExecutable(String name) {
		String path = System.getenv("PATH");
		List<String> folders = new java.util.ArrayList<>();
		if (path != null) {
			folders.addAll(List.of(path.split(":")));
		}
		folders.addAll(SEARCH_PATH);
		for (String folder : folders) {
			Path candidate = Path.of(folder, name);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/**
	 * Finds an executable that a test needs, failing or skipping as {@link #require}
	 * does.
	 * @param name such as {@code memcached}
	 * @param debianPackage the package that provides it
	 * @return its path
	 */
	public static Path requireExecutable(String name, String debianPackage) {
		Optional<Path> found = findExecutable(name);
		require(found.isPresent(), name + " (apt-get install -y " + debianPackage + ")");
		return found.orElseThrow();
	}

}
