package dev.wharf.core.storage.memcached;

import java.time.Duration;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Properties of a {@code memcached} mount.
 *
 * @param servers the memcached servers as {@code host:port} ({@code [::1]:11211} for
 * IPv6; the port defaults to 11211); keys are spread over them by consistent (ketama)
 * hashing, so adding or removing one server moves only its share of the keys
 * @param keyPrefix put before every key, so that several mounts (or other applications)
 * can share servers; defaults to {@code wharf:<mount>:}; 1 to 64 visible ASCII characters
 * @param chunkSize files larger than this are stored as several items of at most this
 * size; must stay below the servers' item size limit ({@code memcached -I}, 1 MB by
 * default) minus 8 KB for the entry's header
 * @param maxFileSize files larger than this are refused ({@code QUOTA_EXCEEDED}) before
 * anything is stored
 * @param expiration how long memcached keeps an item; 0 means until memcached evicts it
 * for space; at most 30 days (memcached's limit for relative times)
 * @param operationTimeout how long one memcached request may take before the operation
 * fails as unavailable
 * @param connectTimeout how long start-up waits for the servers to answer; Wharf starts
 * anyway when they do not, reports the mount as down and connects once they come up
 * @param maxReconnectDelay the longest pause between attempts to reconnect to a server
 * that went away, so a server that returns is used again within about this long
 */
public record MemcachedStorageProperties(@DefaultValue List<String> servers, @Nullable String keyPrefix,
		@DefaultValue("512KB") DataSize chunkSize, @DefaultValue("100MB") DataSize maxFileSize,
		@DefaultValue("0s") Duration expiration, @DefaultValue("1s") Duration operationTimeout,
		@DefaultValue("5s") Duration connectTimeout, @DefaultValue("2s") Duration maxReconnectDelay) {

	/** Room an item keeps for the entry header beside a chunk of content. */
	static final int HEADER_ROOM = 8 * 1024;

	/** The longest relative expiration memcached accepts. */
	static final Duration MAX_EXPIRATION = Duration.ofDays(30);

	public MemcachedStorageProperties {
		if (servers.isEmpty()) {
			throw new InvalidConfigurationException("servers", null,
					"a memcached mount needs at least one server, such as [ \"127.0.0.1:11211\" ]");
		}
		for (int i = 0; i < servers.size(); i++) {
			MemcachedServers.parse("servers[" + i + "]", servers.get(i));
		}
		if (keyPrefix != null && !keyPrefix.matches("[!-~]{1,64}")) {
			throw new InvalidConfigurationException("key-prefix", keyPrefix,
					"must be 1 to 64 visible ASCII characters (no spaces)");
		}
		if (chunkSize.toBytes() < 1024 || chunkSize.toBytes() > 64L * 1024 * 1024) {
			throw new InvalidConfigurationException("chunk-size", chunkSize.toString(), "must be 1KB to 64MB");
		}
		if (maxFileSize.toBytes() < 0) {
			throw new InvalidConfigurationException("max-file-size", maxFileSize.toString(), "must not be negative");
		}
		if (expiration.isNegative() || expiration.compareTo(MAX_EXPIRATION) > 0) {
			throw new InvalidConfigurationException("expiration", expiration.toString(),
					"must be 0 (no expiry) to 30 days");
		}
		requirePositive("operation-timeout", operationTimeout);
		requirePositive("connect-timeout", connectTimeout);
		if (maxReconnectDelay.toSeconds() < 1) {
			throw new InvalidConfigurationException("max-reconnect-delay", maxReconnectDelay.toString(),
					"must be at least 1s");
		}
	}

	private static void requirePositive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidConfigurationException(property, value.toString(), "must be more than 0");
		}
	}

	/**
	 * The key prefix to use for a mount.
	 * @param mount the mount's name
	 * @return the configured prefix, or {@code wharf:<mount>:}
	 */
	String effectiveKeyPrefix(String mount) {
		return (this.keyPrefix != null) ? this.keyPrefix : "wharf:" + mount + ":";
	}

}
