package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The path does not exist.
 */
public class NotFoundException extends StorageException {

	private static final long serialVersionUID = 1L;

	public NotFoundException(String message) {
		this(message, null);
	}

	public NotFoundException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.NOT_FOUND, message, cause);
	}

}
