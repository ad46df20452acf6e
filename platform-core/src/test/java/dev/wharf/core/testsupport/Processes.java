package dev.wharf.core.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import static org.awaitility.Awaitility.await;

/**
 * What tests that start programs need (free ports are {@link FreePorts}'s): a server
 * waited for until it answers, a server killed and waited for, a client run to its end
 * with its output.
 */
public final class Processes {

	private Processes() {
	}

	/**
	 * Whether a port on 127.0.0.1 can be listened on now (a stopped server's port may
	 * stay taken for a moment).
	 * @param port the port
	 * @return whether it is free
	 */
	public static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException taken) {
			return false;
		}
	}

	/**
	 * Waits until ports on 127.0.0.1 can be listened on, polling with Awaitility.
	 * @param timeout how long to wait at most
	 * @param ports the ports
	 * @return whether they are free
	 */
	public static boolean awaitFree(Duration timeout, int... ports) {
		try {
			await().atMost(timeout)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(100))
				.until(() -> Arrays.stream(ports).allMatch(Processes::isFree));
			return true;
		}
		catch (ConditionTimeoutException late) {
			return false;
		}
	}

	/**
	 * Waits until a server started as a process is ready, polling with Awaitility.
	 * @param process the server
	 * @param timeout how long it may take
	 * @param interval how often to ask
	 * @param ready whether it is ready; an exception counts as "not yet"
	 * @return whether it is ready; {@code false} if it exited or did not get ready in
	 * time (the caller, who knows where its log is, reports which)
	 */
	public static boolean awaitReady(Process process, Duration timeout, Duration interval, Callable<Boolean> ready) {
		AtomicBoolean answered = new AtomicBoolean();
		try {
			await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(interval).until(() -> {
				try {
					answered.set(ready.call());
				}
				catch (Exception notYet) {
					answered.set(false);
				}
				return answered.get() || !process.isAlive();
			});
		}
		catch (ConditionTimeoutException late) {
			return false;
		}
		return answered.get();
	}

	/**
	 * Kills a process at once ({@code SIGKILL}), as a crash would, and waits for it to
	 * end.
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
