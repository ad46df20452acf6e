package dev.wharf.core.session;

import java.time.Instant;
import java.util.Objects;

import dev.wharf.core.security.Credentials;
import org.jspecify.annotations.Nullable;

/**
 * One logged-in browser session, as a {@link SessionStore} keeps it. It holds the user's
 * name, not the user: rights are looked up again on every request, so a change in the
 * user directory applies at once. It never holds the session's secret, only its digest.
 *
 * @param key the digest of the session's secret ({@link Secrets#digest}), under which it
 * is stored
 * @param user the user's name
 * @param created when the user logged in
 * @param lastSeen when the session was last used (updated at most once a minute)
 * @param client the client address at login, for the user's list of sessions, or
 * {@code null}
 * @param credentials the login's name and password, kept only when a mount logs in to its
 * backend as the user ("passthrough"); {@code null} otherwise. A store that keeps
 * sessions outside this process must not write them out
 */
public record Session(String key, String user, Instant created, Instant lastSeen, @Nullable String client,
		@Nullable Credentials credentials) {

	public Session {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(user, "user");
		Objects.requireNonNull(created, "created");
		Objects.requireNonNull(lastSeen, "lastSeen");
	}

	/**
	 * The same session, used at a later time.
	 * @param now when it was used
	 * @return the updated session
	 */
	public Session seenAt(Instant now) {
		return new Session(this.key, this.user, this.created, now, this.client, this.credentials);
	}

	@Override
	public String toString() {
		return "Session[user=" + this.user + ", created=" + this.created + ", lastSeen=" + this.lastSeen + "]";
	}

}
