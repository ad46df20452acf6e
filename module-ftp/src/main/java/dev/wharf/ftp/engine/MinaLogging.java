package dev.wharf.ftp.engine;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Keeps MINA from logging clients that go away as server errors. Its I/O processor logs,
 * at ERROR, every control connection a client reset or closed while a reply was being
 * written ({@code Exception occured while trying to
 * read}, {@code Error 'Broken pipe' while trying to write}), and its TLS filter every
 * handshake it refused (an old protocol, no common suite), with a stack trace. Both hand
 * the same failure to {@link ControlHandler}, which logs it once, one line at DEBUG, or
 * with its stack trace at WARN when it is no disconnect; so these two loggers only repeat
 * it. They are turned off unless the application's logging configuration sets them (set
 * {@code logging.level.org.apache.mina.filter.ssl.SslHandler} to see MINA's own TLS
 * diagnostics again).
 */
final class MinaLogging {

	private static final Log logger = LogFactory.getLog(MinaLogging.class);

	/**
	 * MINA's loggers whose warnings and errors are only per-connection I/O failures that
	 * the handler also gets.
	 */
	static final List<String> REPEATING_LOGGERS = List.of("org.apache.mina.core.service.IoProcessor",
			"org.apache.mina.filter.ssl.SslHandler");

	private MinaLogging() {
	}

	/** Turns the repeating loggers off, where the configuration leaves them unset. */
	static void quietRepeats() {
		try {
			LoggingSystem system = LoggingSystem.get(MinaLogging.class.getClassLoader());
			for (String name : REPEATING_LOGGERS) {
				LoggerConfiguration configuration = system.getLoggerConfiguration(name);
				if (configuration == null || configuration.getConfiguredLevel() == null) {
					system.setLogLevel(name, LogLevel.OFF);
				}
			}
		}
		catch (RuntimeException ex) {
			// No logging system Spring Boot can drive: MINA keeps logging as it does.
			logger.debug("MINA's logging left as it is: " + ex.getMessage());
		}
	}

}
