package dev.wharf.core.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted for a test, to make "disk full" real. Needs root (as in CI);
 * {@link #close()} unmounts it.
 */
public final class Tmpfs implements AutoCloseable {

	private final Path mountPoint;

	private Tmpfs(Path mountPoint) {
		this.mountPoint = mountPoint;
	}

	/**
	 * Mounts a tmpfs of a given size on an existing, empty folder.
	 * @param mountPoint the folder
	 * @param size such as {@code 1m}
	 * @return the mount, or fails/skips through {@link Requirements} if mounting is not
	 * possible
	 */
	public static Tmpfs mount(Path mountPoint, String size) throws IOException, InterruptedException {
		int exit = run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", mountPoint.toString());
		Requirements.require(exit == 0, "permission to mount a tmpfs (run the tests as root, as .ci/run does)");
		return new Tmpfs(mountPoint);
	}

	/** Where it is mounted. */
	public Path path() {
		return this.mountPoint;
	}

	@Override
	public void close() throws IOException, InterruptedException {
		run("umount", "-l", this.mountPoint.toString());
	}

	private static int run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		if (!process.waitFor(30, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			return -1;
		}
		return process.exitValue();
	}

}
