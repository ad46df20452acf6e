package dev.wharf.app;

/**
 * Names SLF4J's bridge as Commons Logging's factory before the first logger is made. Left
 * to itself, Commons Logging 1.3 (which Spring logs through) finds the Log4j API on the
 * class path, starts it to learn that it only forwards to SLF4J, and then picks SLF4J
 * anyway: 87 classes of the Log4j API and its bridge loaded for nothing, with their
 * metadata and symbols kept for the life of the process. Named up front, the same factory
 * is used without that detour. A factory already chosen with
 * {@code -Dorg.apache.commons.logging.LogFactory} is kept.
 *
 * <p>
 * Called once, from {@code main}, before anything logs.
 */
final class CommonsLoggingFactory {

	/** The system property Commons Logging reads first. */
	static final String PROPERTY = "org.apache.commons.logging.LogFactory";

	/** Commons Logging's own factory that logs through SLF4J (and so through Logback). */
	static final String SLF4J = "org.apache.commons.logging.impl.Slf4jLogFactory";

	private CommonsLoggingFactory() {
	}

	/** Selects {@link #SLF4J} unless a factory is already selected. */
	static void selectSlf4j() {
		if (System.getProperty(PROPERTY) == null) {
			System.setProperty(PROPERTY, SLF4J);
		}
	}

}
