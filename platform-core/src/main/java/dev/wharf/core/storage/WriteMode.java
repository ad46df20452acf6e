package dev.wharf.core.storage;

/** How a write treats an existing file at its path. */
public enum WriteMode {

	/**
	 * Fail with {@link AlreadyExistsException} if the path exists; the check and the
	 * write are atomic.
	 */
	CREATE_NEW,

	/**
	 * Replace any existing file (atomically where the backend has
	 * {@link Capability#ATOMIC_WRITE}).
	 */
	REPLACE,

	/**
	 * Append to the existing file, or create it. Needs {@link Capability#APPEND}.
	 * Appended bytes may be visible before the write completes, and a failed append may
	 * leave part of its bytes.
	 */
	APPEND

}
