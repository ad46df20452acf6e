package dev.wharf.core.storage;

/**
 * A path was rejected by {@link StoragePath}'s rules. The message says why, without
 * echoing control characters back.
 */
public class InvalidStoragePathException extends StorageException {

	private static final long serialVersionUID = 1L;

	private final String reason;

	public InvalidStoragePathException(String path, String reason) {
		super(StorageErrorKind.INVALID_PATH, "Invalid path: " + reason, null);
		this.reason = reason;
	}

	/** Why the path was rejected. */
	public String reason() {
		return this.reason;
	}

}
