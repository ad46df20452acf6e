package dev.wharf.filemanager.auth;

import java.util.Objects;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.Session;
import org.jspecify.annotations.Nullable;

/**
 * Who made a request, as {@link CallerResolver} established it: the user (with rights as the user directory
 * says now), and the session or API token that proved it.
 *
 * @param user the user
 * @param session the browser session, or {@code null} for a token
 * @param token the API token, or {@code null} for a session
 */
public record Caller(User user, @Nullable Session session, @Nullable ApiToken token) {

	public Caller {
		Objects.requireNonNull(user, "user");
	}

	/** The user's name. */
	public String name() {
		return this.user.name();
	}

	/**
	 * The login kept for passthrough mounts; only sessions have one (a token carries no password).
	 * @return the credentials, or {@code null}
	 */
	public @Nullable Credentials credentials() {
		Session session = this.session;
		return (session != null) ? session.credentials() : null;
	}

}
