package dev.wharf.core.storage;

/**
 * An ability a {@link Storage} may have. Callers check {@link Storage#capabilities()}
 * before they rely on one; an operation the backend lacks fails with
 * {@link UnsupportedCapabilityException}.
 */
public enum Capability {

	/**
	 * Folders exist and can be listed ({@link Storage#list}); without it the namespace is
	 * flat keys.
	 */
	LIST("listing folders"),

	/**
	 * Folders can be created ({@link Storage#createDirectory}); writes then need their
	 * parent folder to exist.
	 */
	DIRECTORIES("folders"),

	/**
	 * Reads can start at an offset and stop at a length without reading what comes
	 * before.
	 */
	RANGE_READ("range reads"),

	/**
	 * A replacing write is atomic: readers see the old or the new content, never a mix or
	 * a half.
	 */
	ATOMIC_WRITE("atomic writes"),

	/**
	 * A write can append to an existing file ({@link WriteMode#APPEND}); appends are not
	 * atomic.
	 */
	APPEND("appending to files"),

	/** Entries can be moved or renamed ({@link Storage#move}). */
	MOVE("moving files"),

	/** A move that replaces an existing target is atomic. */
	ATOMIC_MOVE("atomic moves"),

	/**
	 * The backend copies without streaming through Wharf; without it {@link Storage#copy}
	 * streams.
	 */
	NATIVE_COPY("server-side copy"),

	/**
	 * Files are local files that HTTP can send with zero-copy
	 * ({@link Storage#localFile}).
	 */
	LOCAL_FILE("local files"),

	/** Modification times are kept and can be set ({@link Storage#setLastModified}). */
	MODIFICATION_TIME("modification times");

	private final String description;

	Capability(String description) {
		this.description = description;
	}

	/** A few words for error messages. */
	public String description() {
		return this.description;
	}

}
