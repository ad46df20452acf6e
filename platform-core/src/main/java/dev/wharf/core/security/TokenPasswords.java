package dev.wharf.core.security;

import reactor.core.publisher.Mono;

/**
 * API tokens given where a protocol asks for a password (FTP's {@code PASS}, the build
 * cache's HTTP Basic), for clients that can send nothing else:
 * {@link Authenticator#loginWithPasswordOrToken} checks them here instead of asking the
 * user directory. Thread-safe; never blocks.
 */
public interface TokenPasswords {

	/**
	 * Whether a password has the form of an API token. Such a password is only ever
	 * checked as a token, never sent to a directory.
	 * @param password the password given
	 * @return whether it looks like a token
	 */
	boolean isToken(String password);

	/**
	 * Finds whom a token acts as.
	 * @param token a password for which {@link #isToken} holds
	 * @return the owner, or empty if the token is unknown, revoked or expired
	 */
	Mono<Owner> owner(String token);

	/**
	 * Whom a token acts as.
	 *
	 * @param user the user's name
	 * @param id the token's public id, for the audit log
	 */
	record Owner(String user, String id) {
	}

}
