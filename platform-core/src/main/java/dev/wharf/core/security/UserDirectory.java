package dev.wharf.core.security;

import java.util.Optional;

import reactor.core.publisher.Mono;

/**
 * Where users and their credentials come from: the configuration
 * ({@link ConfiguredUserDirectory}), an LDAP directory, the users of an OIDC provider, or
 * all of them in turn ({@link CompositeUserDirectory}). Every protocol authenticates
 * through the {@link Authenticator}, which uses this.
 *
 * <p>
 * Implementations are thread-safe. {@link #verify} may be slow (password hashing) and
 * runs wherever the caller subscribes it: callers subscribe it on a bounded worker, never
 * on an event loop; a directory that waits on the network moves its calls to a bounded
 * pool of its own, so a slow server cannot hold up the hashing workers. {@link #find} is
 * fast and non-blocking.
 */
public interface UserDirectory {

	/**
	 * Checks a user name and password.
	 * @param name the name given
	 * @param password the password given
	 * @return the user if both match; empty otherwise, taking as long for an unknown name
	 * as for a wrong password. Fails with {@link DirectoryUnavailableException} when the
	 * answer cannot be known now, and with {@link NoMatchingRuleException} for a right
	 * password that gives no rights.
	 */
	Mono<User> verify(String name, String password);

	/**
	 * Looks a user up by name, to refresh a session's view of the user's rights.
	 * @param name the user's name
	 * @return the user, or empty if there is none (any more)
	 */
	Optional<User> find(String name);

}
