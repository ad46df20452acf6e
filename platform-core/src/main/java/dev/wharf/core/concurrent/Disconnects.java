package dev.wharf.core.concurrent;

import java.io.IOException;

/**
 * Tells a client going away from a server fault, for logging: a connection that the
 * client reset or closed, a reply or download written to a client that is gone (broken
 * pipe), and a TLS handshake that the client refused (an unknown certificate, an old
 * protocol) or broke off are the network's and the client's doing, and are logged as one
 * line at DEBUG; anything else is a fault of the server and keeps its stack trace at WARN
 * or above. Stateless and thread-safe.
 */
public final class Disconnects {

	private Disconnects() {
	}

	/**
	 * Whether an error from a connection means only that the client or the network ended
	 * it: an {@link IOException} (TLS failures included) anywhere among its causes.
	 * @param error the error
	 * @return whether it is an ordinary disconnect
	 */
	public static boolean isOrdinary(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof IOException) {
				return true;
			}
			if (cause.getCause() == cause) {
				return false;
			}
		}
		return false;
	}

	/**
	 * The error on one line, for a log line without a stack trace: the innermost cause's
	 * type and message.
	 * @param error the error
	 * @return such as
	 * {@code SSLHandshakeException: Received fatal alert: certificate_unknown}
	 */
	public static String describe(Throwable error) {
		Throwable innermost = error;
		while (innermost.getCause() != null && innermost.getCause() != innermost) {
			innermost = innermost.getCause();
		}
		return innermost.getClass().getSimpleName() + ": " + innermost.getMessage();
	}

}
