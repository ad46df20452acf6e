package dev.wharf.buildcache.autoconfigure;

import java.time.Duration;

import dev.wharf.buildcache.access.AnonymousAccess;
import dev.wharf.buildcache.store.Compression;
import dev.wharf.buildcache.store.KeyDigest;
import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The Gradle and Maven remote build cache ({@code wharf.buildcache}).
 *
 * @param enabled whether the cache is served
 * @param basePath where the cache is served: entries are {@code {base-path}/{key…}} and
 * the base path itself answers health checks
 * @param mount the mount that holds the entries
 * @param folder the folder in the mount that holds the entries; the default is a reserved
 * name, so no other protocol (file manager, FTP) can see or change cache entries even on
 * a shared mount
 * @param maxEntrySize larger entries are refused with 413, before their body is read when
 * the client announces the length
 * @param anonymous what requests without credentials may do: {@code none}, {@code read}
 * or {@code read-write}
 * @param realm the realm in {@code WWW-Authenticate}
 * @param eviction how the cache keeps itself within bounds
 * @param compression how entries are stored: {@code none} or {@code deflate}
 * @param keyDigest store entries under a digest of their key: {@code none}, {@code md5},
 * {@code sha-1}, {@code sha-256}
 * @param quota request limits per user and per client address
 * @param clientCertificates logging in with a TLS client certificate
 * @param fastLane whether GET and HEAD requests of entries on kept-alive HTTP/1.1
 * connections are answered directly on the connection, before Reactor Netty's request
 * handling (the same answers, with less work per request)
 * @param hotEntries copies in memory of small entries read or written lately, answered
 * without the storage (on local mounts by default)
 */
@ConfigurationProperties("wharf.buildcache")
public record BuildCacheProperties(@DefaultValue("true") boolean enabled, @DefaultValue("/cache") String basePath,
		@DefaultValue("data") String mount, @DefaultValue(".wharf-buildcache") String folder,
		@DefaultValue("100MB") DataSize maxEntrySize, @DefaultValue("none") AnonymousAccess anonymous,
		@DefaultValue("Wharf build cache") String realm, @DefaultValue Eviction eviction,
		@DefaultValue("none") Compression compression, @DefaultValue("none") KeyDigest keyDigest,
		@DefaultValue Quota quota, @DefaultValue ClientCertificates clientCertificates,
		@DefaultValue("true") boolean fastLane, @DefaultValue HotEntries hotEntries) {

	private static final String PREFIX = "wharf.buildcache.";

	public BuildCacheProperties {
		if (!basePath.matches("(/[A-Za-z0-9._~-]+)+/?") || basePath.matches(".*/\\.\\.?(/.*)?")) {
			throw new InvalidConfigurationException(PREFIX + "base-path", basePath,
					"must be a path such as /cache: '/' and names of letters, digits, '.', '_', '~' or '-' (not '.' or '..')");
		}
		if (maxEntrySize.toBytes() <= 0) {
			throw new InvalidConfigurationException(PREFIX + "max-entry-size", maxEntrySize.toString(),
					"must be more than 0");
		}
		if (realm.isBlank() || !realm.matches("[ -~&&[^\"\\\\]]+")) {
			throw new InvalidConfigurationException(PREFIX + "realm", realm,
					"must be printable ASCII without quotes or backslashes");
		}
	}

	/** The base path without a trailing slash. */
	public String normalizedBasePath() {
		return this.basePath.endsWith("/") ? this.basePath.substring(0, this.basePath.length() - 1) : this.basePath;
	}

	/**
	 * How the cache bounds itself. memcached evicts by itself and cannot list, so on a
	 * memcached mount neither applies; on other mounts Wharf keeps an index of every
	 * entry by last use.
	 *
	 * @param maxSize the most bytes of entries; when a write would pass it, the least
	 * recently used entries go first. Defaults to 90% of a {@code memory} mount's size,
	 * and 10 GB on other mounts
	 * @param maxAge entries not read or written for this long are removed; 0 keeps them
	 * until space is needed
	 */
	public record Eviction(@Nullable DataSize maxSize, @DefaultValue("7d") Duration maxAge) {

		public Eviction {
			if (maxSize != null && maxSize.toBytes() <= 0) {
				throw new InvalidConfigurationException(PREFIX + "eviction.max-size", maxSize.toString(),
						"must be more than 0");
			}
			if (maxAge.isNegative()) {
				throw new InvalidConfigurationException(PREFIX + "eviction.max-age", maxAge.toString(),
						"must not be negative");
			}
		}

	}

	/**
	 * Copies in memory of small entries this replica read or wrote lately, so that GETs
	 * of them from a local folder are answered without going to the storage, as on a
	 * {@code memory} mount. A copy is served for at most {@code revalidate-after} after
	 * it was last checked against the stored file; an entry deleted or replaced behind
	 * the cache's back (by hand, by another replica) stops being served within that time.
	 * A PUT on this replica drops the entry's copy before it is answered. Unused on a
	 * {@code memory} mount, which holds every entry in memory already; on sftp and
	 * memcached only when a size is set (a copy would also answer for a while after the
	 * server evicted the entry or went down).
	 *
	 * @param maxSize the most bytes of copies (each charged 320 bytes beyond its
	 * content); 0 keeps none. Defaults, on a local mount, to 1/64 of the JVM's maximum
	 * heap and at most 64 MB; elsewhere to 0
	 * @param maxEntrySize the largest entry copied
	 * @param revalidateAfter how long a copy is served without a look at the stored file;
	 * 0 looks every time (which still saves reading it)
	 */
	public record HotEntries(@Nullable DataSize maxSize, @DefaultValue("64KB") DataSize maxEntrySize,
			@DefaultValue("1s") Duration revalidateAfter) {

		public HotEntries {
			if (maxSize != null && maxSize.toBytes() < 0) {
				throw new InvalidConfigurationException(PREFIX + "hot-entries.max-size", maxSize.toString(),
						"must not be negative");
			}
			if (maxEntrySize.toBytes() <= 0 || maxEntrySize.toBytes() > Integer.MAX_VALUE - 8) {
				throw new InvalidConfigurationException(PREFIX + "hot-entries.max-entry-size", maxEntrySize.toString(),
						"must be more than 0 and less than 2 GB");
			}
			if (revalidateAfter.isNegative()) {
				throw new InvalidConfigurationException(PREFIX + "hot-entries.revalidate-after",
						revalidateAfter.toString(), "must not be negative");
			}
		}

	}

	/**
	 * Request limits: each request takes one token from its user's bucket and one from
	 * its address's; an empty bucket answers 429 with {@code Retry-After}. Note that
	 * Gradle stops using the remote cache for the rest of a build after any error answer,
	 * 429 included.
	 *
	 * @param perUser the bucket of each authenticated user
	 * @param perAddress the bucket of each client address, with or without a user
	 */
	public record Quota(@DefaultValue Limit perUser, @DefaultValue Limit perAddress) {

		public Quota {
			check("per-user", perUser);
			check("per-address", perAddress);
		}

		private static void check(String name, Limit limit) {
			if (limit.requests() < 0) {
				throw new InvalidConfigurationException(PREFIX + "quota." + name + ".requests",
						Integer.toString(limit.requests()), "must not be negative");
			}
			if (limit.period().isNegative() || limit.period().isZero()) {
				throw new InvalidConfigurationException(PREFIX + "quota." + name + ".period", limit.period().toString(),
						"must be more than 0");
			}
		}

	}

	/**
	 * A token bucket: up to {@code requests} at once, refilled at {@code requests} per
	 * {@code period}.
	 *
	 * @param requests the bucket's size and refill per period; 0 means no limit
	 * @param period how long a full refill takes
	 */
	public record Limit(@DefaultValue("0") int requests, @DefaultValue("1m") Duration period) {

		/** Whether this limit applies. */
		public boolean isLimited() {
			return this.requests > 0;
		}

	}

	/**
	 * Logging in with a TLS client certificate instead of a password. TLS itself, and
	 * whether a certificate is asked for and checked, is the server's:
	 * {@code server.ssl.*} with {@code server.ssl.client-auth: want} (or {@code need})
	 * and a trust store.
	 *
	 * @param enabled whether a verified client certificate identifies the user;
	 * credentials in an {@code Authorization} header still win
	 * @param userAttribute the attribute of the certificate's subject that holds the
	 * user's name, such as {@code CN}; a certificate whose name is not a configured user
	 * is anonymous
	 */
	public record ClientCertificates(@DefaultValue("false") boolean enabled, @DefaultValue("CN") String userAttribute) {

		public ClientCertificates {
			if (!userAttribute.matches("[A-Za-z][A-Za-z0-9.-]*")) {
				throw new InvalidConfigurationException(PREFIX + "client-certificates.user-attribute", userAttribute,
						"must be an attribute name such as CN, UID or OU");
			}
		}

	}

}
