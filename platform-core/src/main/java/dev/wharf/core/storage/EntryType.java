package dev.wharf.core.storage;

/** The kind of a {@link FileEntry}. */
public enum EntryType {

	/** A regular file with content. */
	FILE,

	/** A folder. */
	DIRECTORY,

	/**
	 * Anything else the backend holds: devices, sockets, pipes, and links that cannot be
	 * followed (out of the root or dangling). Never read, written or traversed.
	 */
	OTHER

}
