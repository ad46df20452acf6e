package dev.wharf.buildcache.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.jspecify.annotations.Nullable;

/**
 * Whether keys are stored under their own name or under a digest of it
 * ({@code wharf.buildcache.key-digest}), for backends with short or case-insensitive
 * names. With a digest, entries are spread over 256 folders by the digest's first byte.
 */
public enum KeyDigest {

	/** The key as the client sent it (the default). */
	NONE(null),

	/** MD5 (32 hex characters). */
	MD5("MD5"),

	/** SHA-1 (40 hex characters). */
	SHA_1("SHA-1"),

	/** SHA-256 (64 hex characters). */
	SHA_256("SHA-256");

	private final @Nullable String algorithm;

	KeyDigest(@Nullable String algorithm) {
		this.algorithm = algorithm;
	}

	/**
	 * A new digest for this algorithm.
	 * @return the digest; never called for {@link #NONE}
	 */
	MessageDigest newDigest() {
		if (this.algorithm == null) {
			throw new IllegalStateException("No digest");
		}
		try {
			return MessageDigest.getInstance(this.algorithm);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(this.algorithm + " is unavailable", ex);
		}
	}

}
