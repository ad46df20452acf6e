package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The target exists and the operation was not asked to replace it.
 */
public class AlreadyExistsException extends StorageException {

	private static final long serialVersionUID = 1L;

	public AlreadyExistsException(String message) {
		this(message, null);
	}

	public AlreadyExistsException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.ALREADY_EXISTS, message, cause);
	}

}
