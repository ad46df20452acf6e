package dev.wharf.core.session;

import java.time.Duration;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long sessions last ({@code wharf.sessions}).
 *
 * @param idleTimeout a session not used for this long ends
 * @param maxAge a session ends this long after the login, however much it is used
 * @param maximumSessions the most sessions the in-memory store keeps; past it the least recently used end
 */
@ConfigurationProperties("wharf.sessions")
public record SessionProperties(@DefaultValue("12h") Duration idleTimeout, @DefaultValue("7d") Duration maxAge,
		@DefaultValue("100000") long maximumSessions) {

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
	}

}
