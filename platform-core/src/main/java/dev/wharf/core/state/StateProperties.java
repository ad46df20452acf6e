package dev.wharf.core.state;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the state that replicas must agree on lives ({@code wharf.state}).
 *
 * @param store {@code local}: in this process (one replica; the default); {@code redis}:
 * in the Redis that Spring Boot's {@code spring.data.redis.*} describes, shared by every
 * replica
 * @param keyPrefix what every Redis key and channel starts with, so several Wharf
 * installations can share one Redis; in a Redis Cluster a hash tag such as
 * <code>{wharf}:</code>, so every key lands in one slot (the scripts change several keys
 * at once)
 */
@ConfigurationProperties("wharf.state")
public record StateProperties(@DefaultValue("local") Store store, @DefaultValue("wharf:") String keyPrefix) {

	/** The property that selects the store. */
	public static final String STORE_PROPERTY = "wharf.state.store";

	public StateProperties {
		if (keyPrefix.isEmpty() || keyPrefix.length() > 64 || !keyPrefix.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
			throw new InvalidConfigurationException("wharf.state.key-prefix", keyPrefix,
					"must be 1 to 64 printable ASCII characters without spaces");
		}
	}

	/** The stores to choose from. */
	public enum Store {

		/**
		 * In this process: the state is lost at a restart and not shared with other
		 * replicas.
		 */
		LOCAL,

		/** In Redis, shared by every replica. */
		REDIS

	}

}
