package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The path is of the wrong kind or in the wrong state: a file where a folder is needed, a
 * folder that is not empty, a move into itself.
 */
public class ConflictException extends StorageException {

	private static final long serialVersionUID = 1L;

	public ConflictException(String message) {
		this(message, null);
	}

	public ConflictException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.CONFLICT, message, cause);
	}

}
