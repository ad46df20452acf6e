package dev.wharf.core.storage.s3;

import dev.wharf.core.storage.StoragePath;

/**
 * Object keys for paths: the mount's prefix and the path's names joined by {@code /}. A
 * folder is every key that starts with its key and a slash; {@code mkdir} writes an empty
 * marker object under exactly that ({@code name/}) so that an empty folder exists too.
 * Thread-safe.
 */
final class S3Keys {

	private final String prefix;

	/**
	 * Creates the mapping.
	 * @param prefix the start of every key: empty, or a folder inside the bucket ending
	 * with {@code /}
	 */
	S3Keys(String prefix) {
		this.prefix = prefix;
	}

	/** The key prefix of the mount's root. */
	String root() {
		return this.prefix;
	}

	/** The key of a file; never the root's. */
	String file(StoragePath path) {
		return this.prefix + String.join("/", path.segments());
	}

	/** The prefix of everything inside a folder, which is also the key of its marker. */
	String folder(StoragePath path) {
		return path.isRoot() ? this.prefix : file(path) + "/";
	}

	/**
	 * The key that a key inside one folder gets when the folder moves, or is copied, to
	 * another.
	 */
	static String moved(String key, String fromFolder, String toFolder) {
		return toFolder + key.substring(fromFolder.length());
	}

}
