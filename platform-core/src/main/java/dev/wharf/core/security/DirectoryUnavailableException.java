package dev.wharf.core.security;

import java.time.Duration;

/**
 * A directory could not answer whether a name and password are right: it cannot be
 * reached, timed out, or refused Wharf's own request. Never a wrong password: protocols
 * answer that logins are unavailable for now (HTTP 503 with {@code Retry-After}, FTP
 * 421), and the login throttle does not count it. The message names the directory's
 * problem and never a password.
 */
public final class DirectoryUnavailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** How long clients are asked to wait. */
	public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

	/**
	 * Creates the exception.
	 * @param message what went wrong
	 * @param cause the directory client's error
	 */
	public DirectoryUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

	/** How long to wait before trying again. */
	public Duration retryAfter() {
		return RETRY_AFTER;
	}

}
