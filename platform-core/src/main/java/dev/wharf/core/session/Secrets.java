package dev.wharf.core.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random secrets (session cookies, API tokens, ids) and the digests under which they are
 * stored, so that a store, a memory dump or a shared cache never holds a secret that
 * could be replayed. Thread-safe.
 */
public final class Secrets {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

	/**
	 * Cloned for each digest: cheaper than looking the algorithm up among the providers
	 * every time.
	 */
	private static final MessageDigest SHA256 = sha256();

	private Secrets() {
	}

	/**
	 * A random secret.
	 * @param bytes how many random bytes; 32 for secrets, fewer for public ids
	 * @return the bytes in unpadded base64url, safe in cookies, headers, URLs and file
	 * names
	 */
	public static String random(int bytes) {
		byte[] value = new byte[bytes];
		RANDOM.nextBytes(value);
		return BASE64URL.encodeToString(value);
	}

	/**
	 * The digest under which a secret is stored. Secrets are 256 random bits, so a fast
	 * hash is enough: there is nothing to guess that a slow hash would protect.
	 * @param secret the secret
	 * @return its SHA-256, in unpadded base64url
	 */
	public static String digest(String secret) {
		MessageDigest digest;
		try {
			digest = (MessageDigest) SHA256.clone();
		}
		catch (CloneNotSupportedException ex) {
			digest = sha256();
		}
		return BASE64URL.encodeToString(digest.digest(secret.getBytes(StandardCharsets.UTF_8)));
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is unavailable", ex);
		}
	}

	/**
	 * Whether a string has the shape of a {@link #random} secret of a given size, checked
	 * before hashing so that junk is refused cheaply.
	 * @param value the string given by a client
	 * @param bytes the random bytes the secret has
	 * @return whether it is unpadded base64url of that many bytes
	 */
	public static boolean looksLikeSecret(String value, int bytes) {
		int length = (bytes * 8 + 5) / 6;
		if (value.length() != length) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
				return false;
			}
		}
		return true;
	}

}
