package dev.wharf.core.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.security.TokenPasswords;
import dev.wharf.core.security.User;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Issues, checks and revokes API tokens, over an {@link ApiTokenStore}. A token is
 * {@value #PREFIX} followed by 256 random bits; it is shown once when issued and only its
 * digest is stored. Tokens also serve as passwords where a protocol takes nothing else
 * ({@link TokenPasswords}). Thread-safe; never blocks.
 */
public final class ApiTokens implements TokenPasswords {

	/** What every token starts with, so secret scanners and people recognise one. */
	public static final String PREFIX = "wharf_";

	/** Random bytes in a token. */
	static final int SECRET_BYTES = 32;

	/** Longest label kept. */
	static final int MAX_LABEL_LENGTH = 64;

	private final ApiTokenStore store;

	private final Clock clock;

	/**
	 * Creates the service.
	 * @param store where tokens live
	 * @param clock the time source
	 */
	public ApiTokens(ApiTokenStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
	}

	/**
	 * Issues a token.
	 * @param user who it acts as
	 * @param label a name for it; control characters are dropped and it is cut to
	 * {@value #MAX_LABEL_LENGTH} characters
	 * @param validity how long it works, or {@code null} for no end
	 * @return the token, whose secret must be shown to the user now: it cannot be
	 * recovered later
	 */
	public Mono<IssuedToken> issue(User user, String label, @Nullable Duration validity) {
		return Mono.defer(() -> {
			String secret = PREFIX + Secrets.random(SECRET_BYTES);
			Instant now = this.clock.instant();
			ApiToken token = new ApiToken(Secrets.random(9), user.name(), cleanLabel(label), Secrets.digest(secret),
					now, (validity != null) ? now.plus(validity) : null);
			return this.store.add(token).thenReturn(new IssuedToken(secret, token));
		});
	}

	/**
	 * Finds the token a client sent.
	 * @param secret the token as sent
	 * @return the token, or empty if it is malformed, unknown, revoked or expired
	 */
	public Mono<ApiToken> authenticate(String secret) {
		if (!isToken(secret)) {
			return Mono.empty();
		}
		return this.store.find(Secrets.digest(secret)).filter(token -> token.isValidAt(this.clock.instant()));
	}

	@Override
	public boolean isToken(String password) {
		return password.startsWith(PREFIX)
				&& Secrets.looksLikeSecret(password.substring(PREFIX.length()), SECRET_BYTES);
	}

	@Override
	public Mono<Owner> owner(String token) {
		return authenticate(token).map(found -> new Owner(found.user(), found.id()));
	}

	/**
	 * A user's tokens, without secrets.
	 * @param user the user's name
	 * @return the tokens
	 */
	public Flux<ApiToken> list(String user) {
		return this.store.list(user);
	}

	/**
	 * Revokes one of a user's tokens.
	 * @param user the user's name
	 * @param id the token's id
	 * @return whether there was such a token
	 */
	public Mono<Boolean> revoke(String user, String id) {
		return this.store.remove(user, id);
	}

	static String cleanLabel(String label) {
		StringBuilder cleaned = new StringBuilder(Math.min(label.length(), MAX_LABEL_LENGTH));
		for (int i = 0; i < label.length() && cleaned.length() < MAX_LABEL_LENGTH; i++) {
			char c = label.charAt(i);
			if (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f) && c != '\u2028' && c != '\u2029') {
				cleaned.append(c);
			}
		}
		String result = cleaned.toString().strip();
		if (!result.isEmpty() && Character.isHighSurrogate(result.charAt(result.length() - 1))) {
			result = result.substring(0, result.length() - 1);
		}
		return result.isEmpty() ? "token" : result;
	}

	/**
	 * A token just issued.
	 *
	 * @param secret the token to give to the user, once
	 * @param token what is stored
	 */
	public record IssuedToken(String secret, ApiToken token) {

		@Override
		public String toString() {
			return "IssuedToken[" + this.token + "]";
		}

	}

}
