package dev.wharf.filemanager.files;

import dev.wharf.core.storage.ByteRange;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Range} header of a download. Only a single byte range is served (as Filestash does); a header
 * that asks for several ranges, or that is malformed, is ignored and the whole file sent, which RFC 9110
 * allows and which avoids the overlapping-ranges attacks (CVE-2011-3192). A single range that starts past
 * the end is unsatisfiable (416).
 */
final class ByteRanges {

	/** Marker for a range that cannot be satisfied. */
	static final ByteRange UNSATISFIABLE = ByteRange.of(Long.MAX_VALUE, 0);

	private ByteRanges() {
	}

	/**
	 * Parses a range header against a file size.
	 * @param header the {@code Range} value, or {@code null}
	 * @param size the file's size
	 * @return the exact slice to send, {@link #UNSATISFIABLE}, or {@code null} to send the whole file
	 */
	static @Nullable ByteRange parse(@Nullable String header, long size) {
		if (header == null || !header.regionMatches(true, 0, "bytes=", 0, 6) || header.indexOf(',') >= 0) {
			return null;
		}
		String spec = header.substring(6).trim();
		int dash = spec.indexOf('-');
		if (dash < 0) {
			return null;
		}
		long first = number(spec.substring(0, dash).trim());
		long last = number(spec.substring(dash + 1).trim());
		if (dash == 0) {
			// A suffix: the last N bytes.
			if (last < 0) {
				return null;
			}
			if (last == 0 || size == 0) {
				return UNSATISFIABLE;
			}
			long length = Math.min(last, size);
			return ByteRange.of(size - length, length);
		}
		if (first < 0 || (dash < spec.length() - 1 && (last < 0 || last < first))) {
			return null;
		}
		if (first >= size) {
			return UNSATISFIABLE;
		}
		long end = (dash == spec.length() - 1) ? size - 1 : Math.min(last, size - 1);
		return ByteRange.of(first, end - first + 1);
	}

	private static long number(String digits) {
		if (digits.isEmpty() || digits.length() > 18) {
			return -1;
		}
		for (int i = 0; i < digits.length(); i++) {
			if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
				return -1;
			}
		}
		return Long.parseLong(digits);
	}

}
