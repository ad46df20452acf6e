package dev.wharf.filemanager.oidc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import dev.wharf.core.session.Secrets;
import org.jspecify.annotations.Nullable;

/**
 * A sign-in under way, between the redirect to the provider and its return: the
 * {@code state} that ties the return to this browser (against login CSRF), the
 * {@code nonce} the ID token must repeat (against a replayed token), and the PKCE
 * verifier whose challenge went out (against a stolen code). Kept in the browser, in an
 * {@code HttpOnly} cookie only Wharf's sign-in path receives, so any replica can finish
 * the sign-in. Each value is 256 random bits; none of them is a credential on its own.
 * Immutable.
 *
 * @param state the OAuth {@code state}
 * @param nonce the OpenID Connect {@code nonce}
 * @param verifier the PKCE code verifier
 */
record PendingSignIn(String state, String nonce, String verifier) {

	private static final int BYTES = 32;

	/** A new sign-in with fresh random values. */
	static PendingSignIn create() {
		return new PendingSignIn(Secrets.random(BYTES), Secrets.random(BYTES), Secrets.random(BYTES));
	}

	/**
	 * Reads the cookie's value.
	 * @param value the cookie, or {@code null}
	 * @return the sign-in, or {@code null} if there is none or it is malformed
	 */
	static @Nullable PendingSignIn parse(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String[] parts = value.split("\\.", -1);
		if (parts.length != 3) {
			return null;
		}
		for (String part : parts) {
			if (!Secrets.looksLikeSecret(part, BYTES)) {
				return null;
			}
		}
		return new PendingSignIn(parts[0], parts[1], parts[2]);
	}

	/** The cookie's value. */
	String cookieValue() {
		return this.state + "." + this.nonce + "." + this.verifier;
	}

	/**
	 * The PKCE challenge ({@code S256}): the verifier's SHA-256, base64url without
	 * padding.
	 */
	String challenge() {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest(this.verifier.getBytes(StandardCharsets.US_ASCII));
			return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is unavailable", ex);
		}
	}

	/**
	 * Whether the provider returned this sign-in's state, compared in constant time.
	 * @param returned the {@code state} the provider sent back, or {@code null}
	 * @return whether it is this sign-in's
	 */
	boolean matches(@Nullable String returned) {
		return returned != null && MessageDigest.isEqual(this.state.getBytes(StandardCharsets.US_ASCII),
				returned.getBytes(StandardCharsets.US_ASCII));
	}

	@Override
	public String toString() {
		return "PendingSignIn[(hidden)]";
	}

}
