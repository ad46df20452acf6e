package dev.wharf.core.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * What tests that start programs need: a free port on 127.0.0.1 for a server, a server killed and waited for,
 * a client run to its end with its output.
 */
public final class Processes {

	private Processes() {
	}

	/**
	 * A port on 127.0.0.1 that was free a moment ago.
	 * @return the port
	 */
	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Kills a process at once ({@code SIGKILL}), as a crash would, and waits for it to end.
	 * @param process the process, or {@code null}
	 */
	public static void kill(@Nullable Process process) {
		if (process == null) {
			return;
		}
		process.destroyForcibly();
		try {
			process.waitFor(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Runs a program to its end, with nothing on its standard input.
	 * @param folder its working folder
	 * @param command the program and its arguments
	 * @return its exit status and everything it printed
	 * @throws AssertionError if it runs longer than two minutes (it is killed)
	 */
	public static Result run(Path folder, List<String> command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).directory(folder.toFile()).start();
		process.getOutputStream().close();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			kill(process);
			throw new AssertionError("Timed out: " + String.join(" ", command));
		}
		return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
	}

	/**
	 * What a program did.
	 *
	 * @param exit its exit status
	 * @param output what it printed, errors included
	 */
	public record Result(int exit, String output) {
	}

}
