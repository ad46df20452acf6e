package dev.wharf.filemanager.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.session.Session;
import org.jspecify.annotations.Nullable;

/**
 * Whether a browser session may mint an API token without a password. Tokens are
 * otherwise minted only with the account's password, so a stolen session cookie cannot
 * mint one. Users who sign in through an OpenID Connect provider have no password Wharf
 * could check, yet need tokens for FTP, the build cache and scripts; their session may
 * mint one only within a short window after the sign-in that started it (as a "sudo mode"
 * asks for a recent authentication): a cookie stolen later cannot. Immutable and
 * thread-safe.
 */
public final class RecentSignIn {

	/** No session ever mints a token: OIDC sign-in is off. */
	public static final RecentSignIn NEVER = new RecentSignIn(null, Duration.ZERO, "", Clock.systemUTC());

	private final @Nullable ExternalUsers users;

	private final Duration window;

	private final String provider;

	private final Clock clock;

	/**
	 * Creates the rule.
	 * @param users the users who signed in through a provider, or {@code null} if there
	 * are none
	 * @param window how long after a sign-in its session may mint tokens
	 * @param provider the provider's name, for messages
	 * @param clock the time source
	 */
	public RecentSignIn(@Nullable ExternalUsers users, Duration window, String provider, Clock clock) {
		this.users = users;
		this.window = window;
		this.provider = provider;
		this.clock = clock;
	}

	/** Whether any session may ever mint a token: OIDC sign-in is on, with a window. */
	public boolean isPossible() {
		return this.users != null && !this.window.isZero();
	}

	/**
	 * Until when a caller's session may mint tokens.
	 * @param caller who is calling
	 * @return the end of the window, or {@code null} if the caller is no provider user
	 * calling with a session
	 */
	public @Nullable Instant mintUntil(Caller caller) {
		Session session = caller.session();
		ExternalUsers users = this.users;
		if (session == null || users == null || !isPossible() || users.entry(caller.name(), Source.OIDC).isEmpty()) {
			return null;
		}
		return session.created().plus(this.window);
	}

	/**
	 * Whether a caller's session may mint a token now.
	 * @param caller who is calling
	 * @return whether the caller signed in through the provider with this session less
	 * than the window ago
	 */
	public boolean allows(Caller caller) {
		Instant until = mintUntil(caller);
		return until != null && this.clock.instant().isBefore(until);
	}

	/** What a refused caller is told, for the message of the 401. */
	public String rule() {
		return !isPossible() ? "Minting a token needs the account's name and password (HTTP Basic)"
				: "Minting a token needs the account's name and password (HTTP Basic), or a sign-in with "
						+ this.provider + " in the last " + this.window.toMinutes() + " minutes";
	}

}
