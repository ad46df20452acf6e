package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The content did not match what the caller announced, such as its length; nothing of it
 * remains.
 */
public class InvalidContentException extends StorageException {

	private static final long serialVersionUID = 1L;

	public InvalidContentException(String message) {
		this(message, null);
	}

	public InvalidContentException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.INVALID_CONTENT, message, cause);
	}

}
