package dev.wharf.core.session;

import java.time.Duration;
import java.util.Objects;

/**
 * A session was not started: too many were started lately, or the store is full. The
 * login itself was right; protocols answer with a wait ({@code Retry-After}): 429 for a
 * rate, 503 for a full store.
 */
public final class SessionLimitException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final Limit limit;

	private final Duration retryAfter;

	/**
	 * Creates the exception.
	 * @param limit which limit refused the session
	 * @param retryAfter how long to wait before trying again
	 */
	public SessionLimitException(Limit limit, Duration retryAfter) {
		super(limit.message, null, false, false);
		this.limit = limit;
		this.retryAfter = retryAfter;
	}

	/** Which limit refused the session. */
	public Limit limit() {
		return this.limit;
	}

	/** How long to wait before trying again. */
	public Duration retryAfter() {
		return this.retryAfter;
	}

	/** The limit's message for the client; never {@code null}. */
	@Override
	public String getMessage() {
		// The constructor takes the limit's message, which every limit has.
		return Objects.requireNonNull(super.getMessage(), "A session limit without a message");
	}

	/** The limits a new session can meet. */
	public enum Limit {

		/** The user started too many sessions lately. */
		USER_RATE("Too many logins for this account, try again later"),

		/** The client's address started too many sessions lately. */
		ADDRESS_RATE("Too many logins from this address, try again later"),

		/**
		 * The store holds its maximum and the user has no session to give up for the new
		 * one.
		 */
		STORE_FULL("Too many sessions on the server, try again later");

		private final String message;

		Limit(String message) {
			this.message = message;
		}

		/**
		 * Whether the limit is the client's own rate (otherwise the server's capacity).
		 */
		public boolean isRate() {
			return this != STORE_FULL;
		}

	}

}
