package dev.wharf.core.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A server program a test runs as a child process (Redis, memcached, S3Proxy, SeaweedFS,
 * haproxy, slapd): the process as last started, waiting until it is ready, ending it as
 * an administrator ({@link #stop()}) or a crash ({@link #kill()}) would, and a shutdown
 * hook that kills it if the test JVM ends first, so that a test run that is killed or
 * times out leaves no server behind. A subclass builds its command line and says when its
 * server is ready. Published in platform-core's test-jar.
 *
 * <p>
 * Not thread-safe: one test drives it.
 */
public abstract class ServerProcess implements AutoCloseable {

	private static final Duration POLL = Duration.ofMillis(20);

	private final String name;

	private final Thread hook;

	private volatile @Nullable Process process;

	/**
	 * Registers the shutdown hook.
	 * @param name the program's name, for the hook's thread and for errors
	 */
	protected ServerProcess(String name) {
		this.name = name;
		this.hook = new Thread(this::kill, name + "-killer");
		Runtime.getRuntime().addShutdownHook(this.hook);
	}

	/** Whether it is running. */
	public boolean isRunning() {
		Process running = this.process;
		return running != null && running.isAlive();
	}

	/**
	 * Records a process just started and waits until it is ready.
	 * @param started the process
	 * @param timeout how long it may take
	 * @param ready whether it is ready; an exception counts as "not yet"
	 * @param log what it printed, for the error when it does not get ready
	 * @throws IOException if it exited or did not get ready in time (it is then killed)
	 */
	protected final void awaitStart(Process started, Duration timeout, Callable<Boolean> ready, Supplier<String> log)
			throws IOException {
		this.process = started;
		if (Processes.awaitReady(started, timeout, POLL, ready)) {
			return;
		}
		if (!started.isAlive()) {
			throw new IOException(this.name + " exited with " + started.exitValue() + ": " + log.get());
		}
		kill();
		throw new IOException(this.name + " was not ready within " + timeout + ": " + log.get());
	}

	/**
	 * A readiness check: the port accepts connections on 127.0.0.1.
	 * @param port the port
	 * @return the check
	 */
	protected static Callable<Boolean> listening(int port) {
		return () -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
				return true;
			}
		};
	}

	/**
	 * A server's log file, for an error message.
	 * @param log the file
	 * @return what it holds, or why it cannot be read
	 */
	protected static String readQuietly(Path log) {
		try {
			return Files.exists(log) ? Files.readString(log) : "(no log)";
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	/**
	 * Stops it as an administrator would ({@code SIGTERM}), killing it if it has not
	 * ended within 20 s.
	 */
	public void stop() {
		end(false);
	}

	/** Kills it at once ({@code SIGKILL}), as a crash would. */
	public void kill() {
		end(true);
	}

	private void end(boolean forcibly) {
		Process running = this.process;
		if (running == null) {
			return;
		}
		if (forcibly) {
			running.destroyForcibly();
		}
		else {
			running.destroy();
		}
		try {
			if (!running.waitFor(20, TimeUnit.SECONDS)) {
				running.destroyForcibly();
				running.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
	}

	/**
	 * Kills it and drops the shutdown hook. A subclass that holds more (a client, a
	 * folder) releases it after calling this.
	 */
	@Override
	public void close() {
		kill();
		try {
			Runtime.getRuntime().removeShutdownHook(this.hook);
		}
		catch (IllegalStateException shuttingDown) {
			// The hook runs anyway.
		}
	}

}
