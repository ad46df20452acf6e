package dev.wharf.buildcache.store;

/**
 * An entry is larger than the cache's maximum entry size; nothing of it is kept.
 */
public class EntryTooLargeException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final long maxEntrySize;

	/**
	 * Creates the exception.
	 * @param maxEntrySize the limit, in bytes
	 */
	public EntryTooLargeException(long maxEntrySize) {
		super("Entries are limited to " + maxEntrySize + " bytes");
		this.maxEntrySize = maxEntrySize;
	}

	/** The limit, in bytes. */
	public long maxEntrySize() {
		return this.maxEntrySize;
	}

}
