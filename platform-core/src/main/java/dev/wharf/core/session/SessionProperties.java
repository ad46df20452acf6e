package dev.wharf.core.session;

import java.time.Duration;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long sessions last and how many there may be ({@code wharf.sessions}).
 *
 * @param idleTimeout a session not used for this long ends
 * @param maxAge a session ends this long after the login, however much it is used
 * @param maximumSessions the most sessions the in-memory store keeps, all users together;
 * when it is reached, a login ends the same user's oldest session, and is refused (503)
 * if the user has none: one user's logins never end another user's session
 * @param maxPerUser the most sessions one user has; a login beyond it ends that user's
 * oldest session
 * @param newSessions how fast sessions may be started
 */
@ConfigurationProperties("wharf.sessions")
public record SessionProperties(@DefaultValue("12h") Duration idleTimeout, @DefaultValue("7d") Duration maxAge,
		@DefaultValue("100000") long maximumSessions, @DefaultValue("100") int maxPerUser,
		@DefaultValue NewSessions newSessions) {

	public SessionProperties {
		if (idleTimeout.isNegative() || idleTimeout.compareTo(Duration.ofMinutes(1)) < 0) {
			throw new InvalidConfigurationException("wharf.sessions.idle-timeout", idleTimeout.toString(),
					"must be at least 1 minute");
		}
		if (maxAge.compareTo(idleTimeout) < 0) {
			throw new InvalidConfigurationException("wharf.sessions.max-age", maxAge.toString(),
					"must be at least wharf.sessions.idle-timeout (" + idleTimeout + ")");
		}
		if (maximumSessions < 1) {
			throw new InvalidConfigurationException("wharf.sessions.maximum-sessions", Long.toString(maximumSessions),
					"must be at least 1");
		}
		if (maxPerUser < 1) {
			throw new InvalidConfigurationException("wharf.sessions.max-per-user", Integer.toString(maxPerUser),
					"must be at least 1");
		}
	}

	/**
	 * How fast sessions may be started, per user and per client address: up to the number
	 * given at once, then as many again spread over each {@code period} (a token bucket).
	 * A login past either limit is refused with 429 and {@code Retry-After}; its password
	 * was right, but no session starts. The defaults are far above what a person or a CI
	 * job does, and far below a flood.
	 *
	 * @param perUser sessions one user may start; 0 for no limit
	 * @param perAddress sessions one client address may start, all users together; 0 for
	 * no limit
	 * @param period the time over which the allowance comes back
	 */
	public record NewSessions(@DefaultValue("100") int perUser, @DefaultValue("300") int perAddress,
			@DefaultValue("1m") Duration period) {

		public NewSessions {
			if (perUser < 0) {
				throw new InvalidConfigurationException("wharf.sessions.new-sessions.per-user",
						Integer.toString(perUser), "must not be negative (0: no limit)");
			}
			if (perAddress < 0) {
				throw new InvalidConfigurationException("wharf.sessions.new-sessions.per-address",
						Integer.toString(perAddress), "must not be negative (0: no limit)");
			}
			if (period.compareTo(Duration.ofSeconds(1)) < 0) {
				throw new InvalidConfigurationException("wharf.sessions.new-sessions.period", period.toString(),
						"must be at least 1 second");
			}
		}

	}

}
