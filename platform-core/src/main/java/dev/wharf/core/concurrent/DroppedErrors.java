package dev.wharf.core.concurrent;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Hooks;

/**
 * What Reactor does with an error that arrives after its subscriber is gone
 * ({@link Hooks#onErrorDropped}). Reactor's default logs each at ERROR with a stack
 * trace. Nearly all are a client that went away while its transfer was being stopped (an
 * FTP client that closes its control connection when its data connection fails, then the
 * transfer's own failure, a reset or a refused TLS handshake, arrives with nobody left to
 * tell): those are one line at DEBUG ({@link Disconnects#isOrdinary}). Any other error is
 * logged as Reactor's default does.
 *
 * <p>
 * The hook is global to the JVM; the process's entry point installs it once. Thread-safe.
 */
public final class DroppedErrors {

	private static final Log logger = LogFactory.getLog(DroppedErrors.class);

	private static final AtomicBoolean installed = new AtomicBoolean();

	private DroppedErrors() {
	}

	/** Installs the hook; later calls do nothing (Reactor's hooks add up). */
	public static void install() {
		if (installed.compareAndSet(false, true)) {
			Hooks.onErrorDropped(DroppedErrors::dropped);
		}
	}

	/**
	 * Logs one dropped error.
	 * @param error the error
	 */
	static void dropped(Throwable error) {
		if (!Disconnects.isOrdinary(error)) {
			logger.error("Operator called default onErrorDropped", error);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Dropped after its subscriber was gone: " + Disconnects.describe(error));
		}
	}

}
