package dev.wharf.buildcache.store;

/** How entries are kept in the mount ({@code wharf.buildcache.compression}). */
public enum Compression {

	/**
	 * As received (the default: Gradle's entries are gzip already, and local files can be
	 * sent with zero copy).
	 */
	NONE,

	/**
	 * Deflated, for caches of compressible entries (Maven's build info, uncompressed
	 * outputs).
	 */
	DEFLATE

}
