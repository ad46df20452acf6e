package dev.wharf.buildcache.access;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a cache request.
 *
 * @param user the authenticated user, or {@code null} for an anonymous request
 * @param address the client's address, or {@code null} if unknown
 */
public record CacheCaller(@Nullable User user, @Nullable String address) {

	/** Whether the request came without a user. */
	public boolean isAnonymous() {
		return this.user == null;
	}

	/** The user's name, or {@code null} if anonymous. */
	public @Nullable String name() {
		return (this.user != null) ? this.user.name() : null;
	}

	/**
	 * Whether the caller may read entries: a {@code cache-reader}, {@code cache-writer}
	 * or admin, or anyone if anonymous reads are allowed.
	 * @param anonymous what anonymous requests may do
	 * @return whether GET and HEAD are allowed
	 */
	public boolean mayRead(AnonymousAccess anonymous) {
		if (this.user == null) {
			return anonymous.mayRead();
		}
		return this.user.hasRole(Role.CACHE_READER) || this.user.hasRole(Role.CACHE_WRITER);
	}

	/**
	 * Whether the caller may store entries: a {@code cache-writer} or admin, or anyone if
	 * anonymous writes are allowed.
	 * @param anonymous what anonymous requests may do
	 * @return whether PUT is allowed
	 */
	public boolean mayWrite(AnonymousAccess anonymous) {
		if (this.user == null) {
			return anonymous.mayWrite();
		}
		return this.user.hasRole(Role.CACHE_WRITER);
	}

}
