package dev.wharf.filemanager.oidc;

/**
 * A sign-in through the provider that did not succeed, and why, for the message the
 * browser is shown and the audit line. Its message never carries a code, a token or a
 * secret.
 */
final class OidcSignInException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final Outcome outcome;

	OidcSignInException(Outcome outcome, String message) {
		super(message, null, false, false);
		this.outcome = outcome;
	}

	OidcSignInException(Outcome outcome, String message, Throwable cause) {
		super(message, cause, false, false);
		this.outcome = outcome;
	}

	/** How the sign-in ended. */
	Outcome outcome() {
		return this.outcome;
	}

	/**
	 * How a sign-in ends when it does not succeed; the name is what the UI is told
	 * ({@code ?signin=}).
	 */
	enum Outcome {

		/**
		 * Refused: a wrong or replayed answer, an invalid ID token, a sign-in cancelled
		 * at the provider.
		 */
		FAILED("failed"),

		/**
		 * The user is known but may not use Wharf: no rule matches, or the name is a
		 * configured user's.
		 */
		DENIED("denied"),

		/**
		 * The provider cannot be reached or answers with a server error: try again later.
		 */
		UNAVAILABLE("unavailable"),

		/**
		 * Wharf started too many sessions lately for this user or address, or holds too
		 * many.
		 */
		BUSY("busy");

		private final String code;

		Outcome(String code) {
			this.code = code;
		}

		/** The name in the UI's address and in audit lines. */
		String code() {
			return this.code;
		}

	}

}
