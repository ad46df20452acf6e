package dev.wharf.core.storage.memcached;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.UUID;

import dev.wharf.core.storage.StoragePath;

/**
 * Memcached keys for paths. A path may be 4096 bytes of any Unicode, a memcached key at
 * most 250 bytes without spaces or control characters, so the key is the prefix plus the
 * URL-safe Base64 of the path's SHA-256 (43 characters); a chunk's key adds the write's
 * id and the chunk's number. Thread-safe.
 */
final class MemcachedKeys {

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	private final String prefix;

	MemcachedKeys(String prefix) {
		this.prefix = prefix;
	}

	/** The key of a file's head item. */
	String head(StoragePath path) {
		return this.prefix + BASE64.encodeToString(sha256(path.toString().getBytes(StandardCharsets.UTF_8)));
	}

	/** The key of one chunk of one write of a file. */
	String chunk(String headKey, UUID writeId, long index) {
		return headKey + '/' + Long.toHexString(writeId.getMostSignificantBits())
				+ Long.toHexString(writeId.getLeastSignificantBits()) + '/' + index;
	}

	/** A key no file uses, for health checks. */
	String probe() {
		return this.prefix + "health";
	}

	private static byte[] sha256(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is unavailable", ex);
		}
	}

}
