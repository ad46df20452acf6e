package dev.wharf.buildcache.store;

import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;

/**
 * A cache entry's key: one or more names, such as Gradle's {@code 0a1b…} or the Maven
 * build-cache extension's {@code v1.1/org.example/demo/5f3c…/demo.jar}. Keys are parsed
 * by core's path rules (so traversal, encoded separators, control characters and
 * malformed UTF-8 are refused) and further limited to the characters real clients use, so
 * that a key is also a safe file name everywhere.
 *
 * @param path the key as a path, relative to the cache's folder
 */
public record CacheKey(StoragePath path) {

	/** Most names in a key. */
	public static final int MAX_DEPTH = 16;

	/**
	 * Parses the raw (percent-encoded) part of a request path after the base path and its
	 * slash.
	 * @param raw such as {@code v1.1/org.example/demo/5f3c/buildinfo.xml}
	 * @return the key
	 * @throws InvalidStoragePathException if it is not a valid key
	 */
	public static CacheKey parse(String raw) {
		if (raw.isEmpty() || raw.startsWith("/") || raw.endsWith("/")) {
			throw new InvalidStoragePathException(raw, "a key is one or more names, without an empty name");
		}
		StoragePath path = StoragePath.parseUriPath(raw);
		if (path.depth() > MAX_DEPTH) {
			throw new InvalidStoragePathException(raw, "a key has at most " + MAX_DEPTH + " names");
		}
		for (String name : path.segments()) {
			if (!isKeyName(name)) {
				throw new InvalidStoragePathException(raw, "key names are letters, digits and . _ ~ + = @ - only");
			}
		}
		return new CacheKey(path);
	}

	/** A loop rather than a regular expression: this runs for every request. */
	private static boolean isKeyName(String name) {
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
					|| c == '_' || c == '~' || c == '+' || c == '=' || c == '@' || c == '-';
			if (!allowed) {
				return false;
			}
		}
		return !name.isEmpty();
	}

	@Override
	public String toString() {
		return this.path.toString().substring(1);
	}

}
