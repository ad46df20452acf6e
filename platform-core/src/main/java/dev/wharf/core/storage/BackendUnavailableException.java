package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The backend cannot be reached, refused the connection or credentials, or timed out.
 */
public class BackendUnavailableException extends StorageException {

	private static final long serialVersionUID = 1L;

	public BackendUnavailableException(String message) {
		this(message, null);
	}

	public BackendUnavailableException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.BACKEND_UNAVAILABLE, message, cause);
	}

}
