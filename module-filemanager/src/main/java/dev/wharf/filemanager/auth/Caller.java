package dev.wharf.filemanager.auth;

import java.util.Objects;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.Session;
import dev.wharf.core.share.Share;
import org.jspecify.annotations.Nullable;

/**
 * Who made a request, as {@link CallerResolver} established it: the user (with rights as
 * the user directory says now), and the session or API token that proved it; or the
 * visitor of a share link, who acts as the share (a user of its own, with the share's
 * rights on its mount only), never as its creator.
 *
 * @param user the user, or for a visitor the share's own
 * @param session the browser session, or {@code null} for a token or a visitor
 * @param token the API token, or {@code null} for a session or a visitor
 * @param share the share a visitor came through, or {@code null} for a user; paths are
 * then the share's
 */
public record Caller(User user, @Nullable Session session, @Nullable ApiToken token, @Nullable Share share) {

	public Caller {
		Objects.requireNonNull(user, "user");
	}

	/**
	 * A user's call.
	 * @param user the user
	 * @param session the browser session, or {@code null} for a token
	 * @param token the API token, or {@code null} for a session
	 */
	public Caller(User user, @Nullable Session session, @Nullable ApiToken token) {
		this(user, session, token, null);
	}

	/** The user's name. */
	public String name() {
		return this.user.name();
	}

	/**
	 * The login kept for passthrough mounts; only sessions have one (a token carries no
	 * password).
	 * @return the credentials, or {@code null}
	 */
	public @Nullable Credentials credentials() {
		Session session = this.session;
		return (session != null) ? session.credentials() : null;
	}

}
