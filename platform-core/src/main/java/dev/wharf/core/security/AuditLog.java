package dev.wharf.core.security;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * One structured line per login, logout and change, on the logger {@value #LOGGER}: who,
 * what, on which path, with what result, from where. The values are also attached as
 * key-value pairs, so Spring Boot's structured logging
 * ({@code logging.structured.format.console=ecs}) turns them into JSON fields. Values are
 * cleaned of control characters so a file name cannot forge a log line; no secret is ever
 * logged.
 */
public final class AuditLog {

	/** The logger name, to route audit lines to their own appender. */
	public static final String LOGGER = "wharf.audit";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER);

	/**
	 * Records an event.
	 * @param event what happened
	 */
	public void record(AuditEvent event) {
		if (!logger.isInfoEnabled()) {
			return;
		}
		String user = clean(event.user());
		String target = clean(event.target());
		String client = clean(event.client());
		LoggingEventBuilder line = logger.atInfo()
			.addKeyValue("protocol", event.protocol())
			.addKeyValue("user", user)
			.addKeyValue("action", event.action())
			.addKeyValue("target", target)
			.addKeyValue("outcome", clean(event.outcome()))
			.addKeyValue("client", client);
		line.log("audit protocol={} user={} action={} target={} outcome={} client={}", event.protocol(), user,
				event.action(), target, clean(event.outcome()), client);
	}

	static String clean(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return "-";
		}
		StringBuilder cleaned = new StringBuilder(value.length() + 2);
		boolean quote = false;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
				cleaned.append("\\u").append(String.format("%04x", (int) c));
			}
			else {
				if (c == ' ' || c == '"' || c == '=') {
					quote = true;
				}
				cleaned.append(c == '"' ? "\\\"" : String.valueOf(c));
			}
		}
		return quote ? '"' + cleaned.toString() + '"' : cleaned.toString();
	}

	/**
	 * One audited event.
	 *
	 * @param protocol {@code http}, {@code ftp}, {@code buildcache}
	 * @param user who, or {@code null} if not known
	 * @param action such as {@code login}, {@code logout}, {@code write}, {@code delete},
	 * {@code move}
	 * @param target the mount and path concerned, or {@code null}
	 * @param outcome {@code success}, {@code failure}, {@code denied}, {@code throttled},
	 * or an error kind
	 * @param client the client's address, or {@code null}
	 */
	public record AuditEvent(String protocol, @Nullable String user, String action, @Nullable String target,
			String outcome, @Nullable String client) {
	}

}
