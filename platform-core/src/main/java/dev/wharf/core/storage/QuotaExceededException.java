package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * A size or space limit of the mount was reached; nothing of the rejected write remains.
 */
public class QuotaExceededException extends StorageException {

	private static final long serialVersionUID = 1L;

	public QuotaExceededException(String message) {
		this(message, null);
	}

	public QuotaExceededException(String message, @Nullable Throwable cause) {
		super(StorageErrorKind.QUOTA_EXCEEDED, message, cause);
	}

}
