package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The caller's rights or the backend forbid the operation.
 */
public class AccessDeniedException extends StorageException {

	private static final long serialVersionUID = 1L;

	public AccessDeniedException(String message) {
		this(message, null);
	}

	public AccessDeniedException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.ACCESS_DENIED, message, cause);
	}

}
