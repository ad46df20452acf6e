package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * An I/O failure that fits no other kind.
 */
public class StorageIoException extends StorageException {

	private static final long serialVersionUID = 1L;

	public StorageIoException(String message) {
		this(message, null);
	}

	public StorageIoException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.IO_ERROR, message, cause);
	}

}
