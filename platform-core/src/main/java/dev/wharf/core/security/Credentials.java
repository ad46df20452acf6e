package dev.wharf.core.security;

import java.util.Objects;
import java.util.Optional;

import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The name and password a user logged in with, for mounts that log in to their backend as
 * that user ("passthrough", see
 * {@link dev.wharf.core.storage.Storage#needsUserCredentials()}). Protocols keep them
 * only for such mounts, only in memory, and hand them to the storage through the Reactor
 * context of each call ({@link #context}); a storage reads them with {@link #current()}.
 * {@link #toString()} never shows the password.
 *
 * @param username the login name
 * @param password the password
 */
public record Credentials(String username, String password) {

	private static final Object CONTEXT_KEY = Credentials.class;

	public Credentials {
		Objects.requireNonNull(username, "username");
		Objects.requireNonNull(password, "password");
	}

	/**
	 * A Reactor context that carries these credentials, for {@code contextWrite}.
	 * @return the context
	 */
	public Context context() {
		return Context.of(CONTEXT_KEY, this);
	}

	/**
	 * The credentials of the caller, from the subscriber's context.
	 * @return the credentials, or empty if the protocol put none there
	 */
	public static Mono<Credentials> current() {
		return Mono.deferContextual(context -> Mono.justOrEmpty(from(context)));
	}

	/**
	 * The credentials in a context.
	 * @param context a Reactor context
	 * @return the credentials, or empty
	 */
	public static Optional<Credentials> from(ContextView context) {
		return context.getOrEmpty(CONTEXT_KEY);
	}

	@Override
	public String toString() {
		return "Credentials[username=" + this.username + ", password=(hidden)]";
	}

}
