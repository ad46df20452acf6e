package dev.wharf.core.storage;

/**
 * What went wrong in a storage operation, for protocols to map to their own codes (HTTP
 * status, FTP reply) with one {@code switch}. The HTTP modules share one mapping,
 * {@link dev.wharf.core.web.StorageErrorStatus}.
 */
public enum StorageErrorKind {

	/** The path does not exist (HTTP 404, FTP 550). */
	NOT_FOUND,

	/** The target exists and the operation does not replace (HTTP 409, FTP 550/553). */
	ALREADY_EXISTS,

	/** The caller or the backend forbids it (HTTP 403, FTP 550). */
	ACCESS_DENIED,

	/**
	 * The backend cannot do this at all; see {@link Capability} (HTTP 501, FTP 502/504).
	 */
	UNSUPPORTED,

	/**
	 * The backend cannot be reached or failed to answer in time (HTTP 503 with
	 * Retry-After, FTP 421/451).
	 */
	BACKEND_UNAVAILABLE,

	/** A size or space limit was reached (HTTP 507, FTP 452/552). */
	QUOTA_EXCEEDED,

	/** The path is malformed or tries to leave the root (HTTP 400, FTP 553). */
	INVALID_PATH,

	/**
	 * The path is of the wrong kind or state: a file where a folder is needed, a folder
	 * not empty (HTTP 409, FTP 550).
	 */
	CONFLICT,

	/**
	 * The content did not match what was announced, such as a length (HTTP 400, FTP 451).
	 */
	INVALID_CONTENT,

	/** Any other I/O failure (HTTP 500, FTP 451). */
	IO_ERROR

}
