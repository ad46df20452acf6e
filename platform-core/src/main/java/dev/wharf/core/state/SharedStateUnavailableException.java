package dev.wharf.core.state;

import java.time.Duration;

/**
 * The shared state store (Redis) cannot be reached or did not answer in time, so a login,
 * a session or a token cannot be checked. Protocols answer "unavailable, try again" (HTTP
 * 503 with {@code Retry-After}, FTP 421), never "wrong password" or "logged out": nothing
 * is known about the caller either way.
 */
public final class SharedStateUnavailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** How long clients are asked to wait. */
	public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

	/**
	 * Creates the exception.
	 * @param cause what the client reported
	 */
	public SharedStateUnavailableException(Throwable cause) {
		super("The shared state store is unavailable", cause);
	}

	/** How long to wait before trying again. */
	public Duration retryAfter() {
		return RETRY_AFTER;
	}

}
