package dev.wharf.core.web;

import java.time.Instant;

/**
 * Entity tags (RFC 9110, section 8.8.3): making them from a file's size and modification
 * time, and matching them against {@code If-None-Match}, {@code If-Match} and
 * {@code If-Range}.
 *
 * <p>
 * A tag looks like nginx's, {@code "<mtime seconds, hex>-<size, hex>"}, with the
 * sub-second part of the modification time added when the storage has one
 * ({@code "<s>.<ns>-<size>"}), so two versions of the same size written within one second
 * still differ.
 *
 * <p>
 * Why not Spring's {@link org.springframework.http.ETag}: its parser (Spring Framework
 * 7.0) skips what it does not expect instead of refusing it, so {@code W/ "x"} (a space
 * after the weak indicator) and {@code w/"x"} are read as the strong tag {@code "x"} and
 * would pass the strong comparison of {@code If-Match} and {@code If-Range}, which RFC
 * 9110 says a weak validator never passes; it drops unquoted tags, which some clients
 * send and Wharf has always accepted; and it builds a list of records for every header,
 * where this reads the header in place, on the static server's fast lane too.
 * {@code EntityTagsTests} pins the tags Spring would misread and the unquoted ones.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class EntityTags {

	private static final String WEAK_PREFIX = "W/";

	private EntityTags() {
	}

	/**
	 * The strong tag of one version of a file.
	 * @param size its length
	 * @param lastModified its modification time
	 * @return the tag, quoted
	 */
	public static String of(long size, Instant lastModified) {
		StringBuilder tag = new StringBuilder(32).append('"').append(Long.toHexString(lastModified.getEpochSecond()));
		if (lastModified.getNano() != 0) {
			tag.append('.').append(Integer.toHexString(lastModified.getNano()));
		}
		return tag.append('-').append(Long.toHexString(size)).append('"').toString();
	}

	/**
	 * The weak form of a tag, for a representation made on the fly (gzip) whose bytes may
	 * differ between two responses.
	 * @param tag a strong tag
	 * @return the weak tag
	 */
	public static String weak(String tag) {
		return tag.startsWith(WEAK_PREFIX) ? tag : WEAK_PREFIX + tag;
	}

	/**
	 * Whether a list of tags ({@code If-None-Match}, {@code If-Match}) or a single tag
	 * ({@code If-Range}) names a tag.
	 * @param header the header's value: {@code *} or a comma-separated list of tags
	 * @param tag the representation's current tag
	 * @param weakComparison weak comparison ({@code If-None-Match}) ignores the
	 * {@code W/} prefixes; strong comparison ({@code If-Match}, {@code If-Range}) never
	 * matches a weak tag
	 * @return whether it matches
	 */
	public static boolean matches(String header, String tag, boolean weakComparison) {
		boolean tagWeak = tag.startsWith(WEAK_PREFIX);
		if (tagWeak && !weakComparison) {
			// Only '*' (any current representation) holds for a weak tag under strong
			// comparison.
			return header.strip().equals("*");
		}
		String opaque = tagWeak ? tag.substring(WEAK_PREFIX.length()) : tag;
		int i = 0;
		int end = header.length();
		while (i < end) {
			char c = header.charAt(i);
			if (c == ' ' || c == '\t' || c == ',') {
				i++;
				continue;
			}
			if (c == '*') {
				return true;
			}
			boolean weak = header.startsWith(WEAK_PREFIX, i);
			if (weak) {
				i += WEAK_PREFIX.length();
			}
			int from = i;
			int to;
			if (i < end && header.charAt(i) == '"') {
				int close = header.indexOf('"', i + 1);
				if (close < 0) {
					return false;
				}
				to = close + 1;
			}
			else {
				// Lenient: some clients send tags without quotes.
				to = i;
				while (to < end && header.charAt(to) != ',' && header.charAt(to) != ' ') {
					to++;
				}
			}
			if (to == from) {
				return false;
			}
			if ((weakComparison || !weak) && sameOpaqueTag(header, from, to, opaque)) {
				return true;
			}
			i = to;
		}
		return false;
	}

	private static boolean sameOpaqueTag(String header, int from, int to, String opaque) {
		if (header.charAt(from) == '"') {
			return to - from == opaque.length() && header.regionMatches(from, opaque, 0, opaque.length());
		}
		return to - from == opaque.length() - 2 && header.regionMatches(from, opaque, 1, opaque.length() - 2);
	}

}
