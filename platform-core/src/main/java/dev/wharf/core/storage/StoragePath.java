package dev.wharf.core.storage;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A normalised path inside a mount, always rooted at the mount's root: a list of
 * validated, NFC-normalised names. Every path a protocol receives is parsed here, once,
 * and a bad path is rejected with {@link InvalidStoragePathException}, never repaired.
 *
 * <p>
 * Rules: {@code /} is the only separator; a leading and a single trailing {@code /} are
 * allowed and {@code ""} or {@code "/"} is the root; {@code .} and {@code ..} segments,
 * empty segments ({@code a//b}), backslashes, NUL and other control characters, unpaired
 * surrogates, the replacement character U+FFFD, bidirectional overrides and line
 * separators are rejected; a segment holds at most {@value #MAX_SEGMENT_BYTES} UTF-8
 * bytes, a path at most {@value #MAX_PATH_BYTES} and {@value #MAX_DEPTH} segments. Names
 * that start with {@code .wharf} followed by nothing or {@code -} are reserved for
 * Wharf's own state beside the data and are refused in user input (see
 * {@link #reserved}), in any case and with any trailing dots and spaces (see
 * {@link #isReservedName}).
 *
 * <p>
 * Instances are immutable and thread-safe; {@code null} is never accepted or returned
 * except where a method says so.
 */
public final class StoragePath implements Comparable<StoragePath> {

	/** Longest name, in UTF-8 bytes (the Linux limit). */
	public static final int MAX_SEGMENT_BYTES = 255;

	/** Longest path, in UTF-8 bytes. */
	public static final int MAX_PATH_BYTES = 4096;

	/** Most segments in a path. */
	public static final int MAX_DEPTH = 128;

	/**
	 * Prefix of names reserved for Wharf's own files inside a mount (temporary files,
	 * upload state).
	 */
	public static final String RESERVED_PREFIX = ".wharf";

	private static final StoragePath ROOT = new StoragePath(List.of());

	private final List<String> segments;

	/**
	 * The hash, worked out on first use: a path is hashed on every look-up (the build
	 * cache's storage and index), and hashing its segments again each time was a few per
	 * cent of a request. Racy but safe, as {@link String}'s: every thread computes the
	 * same value from immutable segments.
	 */
	private int hash;

	/** Whether the hash was worked out and is 0, so that 0 is not worked out again. */
	private boolean hashIsZero;

	private StoragePath(List<String> segments) {
		this.segments = segments;
	}

	/** The root of a mount. */
	public static StoragePath root() {
		return ROOT;
	}

	/**
	 * Parses an already decoded path, as a user or protocol gave it.
	 * @param path the path, such as {@code /photos/2026/a.jpg}
	 * @return the parsed path
	 * @throws InvalidStoragePathException if the path breaks a rule above
	 */
	public static StoragePath parse(String path) {
		return parse(path, false);
	}

	/**
	 * Parses a path that may name Wharf's reserved files. For Wharf's own code only,
	 * never for user input.
	 * @param path the path
	 * @return the parsed path
	 */
	public static StoragePath reserved(String path) {
		return parse(path, true);
	}

	/**
	 * Parses a path as raw bytes that must be strict UTF-8 (FTP arguments, raw request
	 * targets). Overlong and other malformed sequences are rejected, not replaced.
	 * @param utf8 the bytes
	 * @return the parsed path
	 */
	public static StoragePath parseUtf8(byte[] utf8) {
		return parse(decodeUtf8Strictly(utf8));
	}

	/**
	 * Parses the raw (percent-encoded) path of a URI, such as the part of a request
	 * target after a prefix. Encoded separators ({@code %2F}, {@code %5C}) and encoded
	 * NUL are refused, as are malformed escapes and malformed UTF-8.
	 * @param rawPath the raw path, exactly as received
	 * @return the parsed path
	 */
	public static StoragePath parseUriPath(String rawPath) {
		return parse(PercentDecoding.decodePath(rawPath));
	}

	private static StoragePath parse(String path, boolean allowReserved) {
		if (path == null) {
			throw new InvalidStoragePathException("", "path is missing");
		}
		if (path.isEmpty() || path.equals("/")) {
			return ROOT;
		}
		if (utf8Length(path) > MAX_PATH_BYTES) {
			throw new InvalidStoragePathException(path, "path is longer than " + MAX_PATH_BYTES + " bytes");
		}
		checkCharacters(path);
		String normalised = Normalizer.normalize(path, Normalizer.Form.NFC);
		int start = normalised.startsWith("/") ? 1 : 0;
		int end = normalised.endsWith("/") ? normalised.length() - 1 : normalised.length();
		if (start >= end) {
			throw new InvalidStoragePathException(path, "path has an empty name");
		}
		List<String> segments = new ArrayList<>();
		int from = start;
		while (from <= end) {
			int slash = normalised.indexOf('/', from);
			int to = (slash < 0 || slash > end) ? end : slash;
			String segment = normalised.substring(from, to);
			checkSegment(path, segment, allowReserved);
			segments.add(segment);
			if (segments.size() > MAX_DEPTH) {
				throw new InvalidStoragePathException(path, "path has more than " + MAX_DEPTH + " names");
			}
			from = to + 1;
		}
		return new StoragePath(Collections.unmodifiableList(segments));
	}

	private static void checkCharacters(String path) {
		for (int i = 0; i < path.length(); i++) {
			char c = path.charAt(i);
			if (c == '\\') {
				throw new InvalidStoragePathException(path, "backslash is not allowed");
			}
			if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
				throw new InvalidStoragePathException(path, "control characters are not allowed");
			}
			if (c == '\uFFFD' || c == '\u2028' || c == '\u2029' || (c >= '\u202A' && c <= '\u202E')
					|| (c >= '\u2066' && c <= '\u2069') || c == '\uFEFF') {
				throw new InvalidStoragePathException(path,
						"character U+" + Integer.toHexString(c).toUpperCase() + " is not allowed");
			}
			if (Character.isHighSurrogate(c)) {
				if (i + 1 >= path.length() || !Character.isLowSurrogate(path.charAt(i + 1))) {
					throw new InvalidStoragePathException(path, "invalid Unicode (unpaired surrogate)");
				}
				i++;
			}
			else if (Character.isLowSurrogate(c)) {
				throw new InvalidStoragePathException(path, "invalid Unicode (unpaired surrogate)");
			}
		}
	}

	private static void checkSegment(String path, String segment, boolean allowReserved) {
		if (segment.isEmpty()) {
			throw new InvalidStoragePathException(path, "path has an empty name");
		}
		if (segment.equals(".") || segment.equals("..")) {
			throw new InvalidStoragePathException(path, "'.' and '..' are not allowed");
		}
		if (utf8Length(segment) > MAX_SEGMENT_BYTES) {
			throw new InvalidStoragePathException(path, "a name is longer than " + MAX_SEGMENT_BYTES + " bytes");
		}
		if (!allowReserved && isReservedName(segment)) {
			throw new InvalidStoragePathException(path,
					"names starting with '" + RESERVED_PREFIX + "' (in any case) are reserved");
		}
	}

	/**
	 * Tells whether a name is reserved for Wharf's own files. The name is compared the
	 * way the file systems a mount may sit on compare it, on every platform alike:
	 * ignoring case (macOS and Windows file systems do by default, so
	 * {@code .WHARF-BUILDCACHE} would open the build cache's folder) and ignoring
	 * trailing dots and spaces (Windows drops them, so {@code .wharf.} would open
	 * {@code .wharf}).
	 * @param name a single name
	 * @return whether it is {@code .wharf} or starts with {@code .wharf-}, so compared
	 */
	public static boolean isReservedName(String name) {
		int end = name.length();
		while (end > 0 && (name.charAt(end - 1) == '.' || name.charAt(end - 1) == ' ')) {
			end--;
		}
		int length = RESERVED_PREFIX.length();
		return end >= length && name.regionMatches(true, 0, RESERVED_PREFIX, 0, length)
				&& (end == length || name.charAt(length) == '-');
	}

	/**
	 * Tells whether a single name, as a backend lists it, is one that this class accepts;
	 * names that are not (and reserved names) cannot be addressed and are left out of
	 * listings.
	 * @param name the name
	 * @return whether {@link #resolve(String)} would accept it
	 */
	public static boolean isValidName(String name) {
		try {
			return ROOT.resolve(name).name().equals(name);
		}
		catch (InvalidStoragePathException ex) {
			return false;
		}
	}

	static String decodeUtf8Strictly(byte[] bytes) {
		CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPORT)
			.onUnmappableCharacter(CodingErrorAction.REPORT);
		try {
			CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes));
			return chars.toString();
		}
		catch (CharacterCodingException ex) {
			throw new InvalidStoragePathException("", "path is not valid UTF-8");
		}
	}

	private static int utf8Length(String s) {
		int bytes = 0;
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c < 0x80) {
				bytes += 1;
			}
			else if (c < 0x800) {
				bytes += 2;
			}
			else if (Character.isHighSurrogate(c)) {
				bytes += 4;
				i++;
			}
			else {
				bytes += 3;
			}
		}
		return bytes;
	}

	/**
	 * Resolves one name below this path.
	 * @param name a single name, without separators
	 * @return the child path
	 * @throws InvalidStoragePathException if the name is not a valid single name
	 */
	public StoragePath resolve(String name) {
		if (name.indexOf('/') >= 0) {
			throw new InvalidStoragePathException(name, "a name cannot contain '/'");
		}
		StoragePath child = parse(name);
		if (child.isRoot()) {
			throw new InvalidStoragePathException(name, "path has an empty name");
		}
		return resolve(child);
	}

	/**
	 * Appends a relative path (its segments) to this one.
	 * @param relative the path to append
	 * @return the combined path
	 */
	public StoragePath resolve(StoragePath relative) {
		if (relative.isRoot()) {
			return this;
		}
		if (this.isRoot()) {
			return relative;
		}
		if (this.segments.size() + relative.segments.size() > MAX_DEPTH) {
			throw new InvalidStoragePathException(this + relative.toString(),
					"path has more than " + MAX_DEPTH + " names");
		}
		List<String> combined = new ArrayList<>(this.segments.size() + relative.segments.size());
		combined.addAll(this.segments);
		combined.addAll(relative.segments);
		return new StoragePath(Collections.unmodifiableList(combined));
	}

	/**
	 * The parent path.
	 * @return the parent, or {@code null} for the root
	 */
	public @Nullable StoragePath parent() {
		if (this.segments.isEmpty()) {
			return null;
		}
		return new StoragePath(this.segments.subList(0, this.segments.size() - 1));
	}

	/** The last name, or {@code ""} for the root. */
	public String name() {
		return this.segments.isEmpty() ? "" : this.segments.get(this.segments.size() - 1);
	}

	/** The names from the root down, unmodifiable. */
	public List<String> segments() {
		return this.segments;
	}

	/** How many names the path has; 0 for the root. */
	public int depth() {
		return this.segments.size();
	}

	/** Whether this is the root. */
	public boolean isRoot() {
		return this.segments.isEmpty();
	}

	/**
	 * Whether this path is {@code other} or lies below it, compared name by name (so
	 * {@code /root2} is not below {@code /root}).
	 * @param other the possible ancestor
	 * @return whether {@code other} is this path or one of its ancestors
	 */
	public boolean startsWith(StoragePath other) {
		return other.segments.size() <= this.segments.size()
				&& this.segments.subList(0, other.segments.size()).equals(other.segments);
	}

	/**
	 * The part of this path below an ancestor.
	 * @param ancestor a path this one {@link #startsWith starts with}
	 * @return the relative remainder, as a rooted path
	 */
	public StoragePath relativeTo(StoragePath ancestor) {
		if (!startsWith(ancestor)) {
			throw new IllegalArgumentException(this + " is not below " + ancestor);
		}
		return new StoragePath(this.segments.subList(ancestor.segments.size(), this.segments.size()));
	}

	/** Whether any name in the path is reserved for Wharf's own files. */
	public boolean isReserved() {
		for (String segment : this.segments) {
			if (isReservedName(segment)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int compareTo(StoragePath other) {
		int common = Math.min(this.segments.size(), other.segments.size());
		for (int i = 0; i < common; i++) {
			int c = this.segments.get(i).compareTo(other.segments.get(i));
			if (c != 0) {
				return c;
			}
		}
		return Integer.compare(this.segments.size(), other.segments.size());
	}

	@Override
	public boolean equals(@Nullable Object obj) {
		if (this == obj) {
			return true;
		}
		return obj instanceof StoragePath other && hashCode() == other.hashCode()
				&& this.segments.equals(other.segments);
	}

	@Override
	public int hashCode() {
		int h = this.hash;
		if (h == 0 && !this.hashIsZero) {
			h = this.segments.hashCode();
			if (h == 0) {
				this.hashIsZero = true;
			}
			else {
				this.hash = h;
			}
		}
		return h;
	}

	/** The path as {@code /a/b}; the root is {@code /}. */
	@Override
	public String toString() {
		return this.segments.isEmpty() ? "/" : "/" + String.join("/", this.segments);
	}

}
