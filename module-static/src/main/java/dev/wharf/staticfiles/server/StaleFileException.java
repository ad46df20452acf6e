package dev.wharf.staticfiles.server;

/**
 * A local file changed since it was resolved (replaced or removed); the request is
 * resolved again.
 */
final class StaleFileException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	StaleFileException() {
		super("The file changed since it was resolved", null, false, false);
	}

}
