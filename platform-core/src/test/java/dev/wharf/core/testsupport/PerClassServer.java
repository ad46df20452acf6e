package dev.wharf.core.testsupport;

import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one server before a test class and closes it after, for
 * {@code @RegisterExtension static final} fields (see {@link RedisProcess.PerClass},
 * {@link OpenSshServer.PerClass}). {@code @Nested} classes inherit the extension and
 * share the server: it closes after the outermost class.
 *
 * @param <S> the server
 */
public class PerClassServer<S extends AutoCloseable> implements BeforeAllCallback, AfterAllCallback {

	private final Callable<S> start;

	private final Stop<S> stop;

	private @Nullable S server;

	/** How many test classes are running. */
	private int classes;

	/**
	 * Makes the extension for a server that closing stops.
	 * @param start starts the server
	 */
	protected PerClassServer(Callable<S> start) {
		this(start, AutoCloseable::close);
	}

	/**
	 * Makes the extension.
	 * @param start starts the server
	 * @param stop stops it and removes what it leaves
	 */
	protected PerClassServer(Callable<S> start, Stop<S> stop) {
		this.start = start;
		this.stop = stop;
	}

	/** The running server. */
	public synchronized S server() {
		if (this.server == null) {
			throw new IllegalStateException("The server starts before the test class's @BeforeAll methods");
		}
		return this.server;
	}

	@Override
	public synchronized void beforeAll(ExtensionContext context) throws Exception {
		if (this.classes++ > 0) {
			return;
		}
		this.server = this.start.call();
	}

	@Override
	public synchronized void afterAll(ExtensionContext context) throws Exception {
		if (--this.classes > 0 || this.server == null) {
			return;
		}
		S running = this.server;
		this.server = null;
		this.stop.stop(running);
	}

	/**
	 * Stops a server.
	 *
	 * @param <S> the server
	 */
	@FunctionalInterface
	protected interface Stop<S> {

		/**
		 * Stops it.
		 * @param server the server
		 */
		void stop(S server) throws Exception;

	}

}
