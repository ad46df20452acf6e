package dev.wharf.core.security;

import java.util.Optional;

import dev.wharf.core.security.ExternalUser.Source;
import reactor.core.publisher.Mono;

/**
 * The users who signed in through an identity provider in the browser (OIDC), as a
 * {@link UserDirectory}: they are found by name for their sessions and API tokens, but
 * have no password Wharf could check, so {@link #verify} never succeeds.
 */
public final class ExternalUserDirectory implements UserDirectory {

	private final ExternalUsers users;

	private final Source source;

	/**
	 * Creates the directory.
	 * @param users the remembered users
	 * @param source whose users this directory finds
	 */
	public ExternalUserDirectory(ExternalUsers users, Source source) {
		this.users = users;
		this.source = source;
	}

	@Override
	public Mono<User> verify(String name, String password) {
		return Mono.empty();
	}

	@Override
	public Optional<User> find(String name) {
		return this.users.find(name, this.source);
	}

}
