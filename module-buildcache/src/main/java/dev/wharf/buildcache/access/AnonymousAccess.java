package dev.wharf.buildcache.access;

/**
 * What a request without credentials may do ({@code wharf.buildcache.anonymous}).
 * Anonymous writes let anyone who can reach the cache poison other people's builds, so
 * they are off unless chosen.
 */
public enum AnonymousAccess {

	/** Nothing: every request needs a user ({@code none}, the default). */
	NONE,

	/** Reads only; writes need a {@code cache-writer} ({@code read}). */
	READ,

	/**
	 * Reads and writes ({@code read-write}); only for a cache that nobody untrusted can
	 * reach.
	 */
	READ_WRITE;

	/** Whether anonymous requests may read. */
	public boolean mayRead() {
		return this != NONE;
	}

	/** Whether anonymous requests may write. */
	public boolean mayWrite() {
		return this == READ_WRITE;
	}

}
