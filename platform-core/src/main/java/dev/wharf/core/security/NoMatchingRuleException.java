package dev.wharf.core.security;

/**
 * A user's password (or identity provider sign-in) was right, but no rule of
 * {@code wharf.security.directory.rules} matches the user's groups, so the user may do
 * nothing. Protocols answer as for a wrong password, so the difference cannot be probed;
 * the audit log says {@code denied}.
 */
public final class NoMatchingRuleException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param name the user's name
	 */
	public NoMatchingRuleException(String name) {
		super("No rule of wharf.security.directory.rules matches the groups of '" + name + "'", null, false, false);
	}

}
