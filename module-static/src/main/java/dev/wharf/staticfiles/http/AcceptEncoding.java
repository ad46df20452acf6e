package dev.wharf.staticfiles.http;

/**
 * Reads {@code Accept-Encoding} (RFC 9110, section 12.5.3): how much a client wants a
 * content coding.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class AcceptEncoding {

	private AcceptEncoding() {
	}

	/**
	 * The quality a client gives a coding: its own entry's {@code q} (1 without one),
	 * else that of {@code *}, else 0. {@code x-gzip} counts as {@code gzip}. A malformed
	 * {@code q} counts as 0.
	 * @param header the header's value
	 * @param coding such as {@code br} or {@code gzip}, lower case
	 * @return 0 (not acceptable) to 1
	 */
	public static float quality(String header, String coding) {
		float wildcard = 0;
		int i = 0;
		int end = header.length();
		while (i < end) {
			int comma = header.indexOf(',', i);
			int elementEnd = (comma < 0) ? end : comma;
			int semicolon = header.indexOf(';', i);
			int nameEnd = (semicolon < 0 || semicolon > elementEnd) ? elementEnd : semicolon;
			int nameStart = skipSpaces(header, i, nameEnd);
			int nameStop = trimEnd(header, nameStart, nameEnd);
			float q = (nameEnd < elementEnd) ? quality(header, nameEnd + 1, elementEnd) : 1;
			if (named(header, nameStart, nameStop, coding)
					|| (coding.equals("gzip") && named(header, nameStart, nameStop, "x-gzip"))) {
				return q;
			}
			if (nameStop - nameStart == 1 && header.charAt(nameStart) == '*') {
				wildcard = q;
			}
			i = elementEnd + 1;
		}
		return wildcard;
	}

	private static boolean named(String header, int from, int to, String name) {
		return to - from == name.length() && header.regionMatches(true, from, name, 0, name.length());
	}

	/** Reads {@code q=value} among the parameters in [from, to). */
	private static float quality(String header, int from, int to) {
		int i = from;
		while (i < to) {
			int start = skipSpaces(header, i, to);
			int semicolon = header.indexOf(';', start);
			int paramEnd = (semicolon < 0 || semicolon > to) ? to : semicolon;
			if (paramEnd - start >= 2 && (header.charAt(start) == 'q' || header.charAt(start) == 'Q')
					&& header.charAt(start + 1) == '=') {
				try {
					float q = Float.parseFloat(header.substring(start + 2, trimEnd(header, start + 2, paramEnd)));
					return (q >= 0 && q <= 1) ? q : 0;
				}
				catch (NumberFormatException ex) {
					return 0;
				}
			}
			i = paramEnd + 1;
		}
		return 1;
	}

	private static int skipSpaces(String s, int i, int end) {
		while (i < end && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

	private static int trimEnd(String s, int start, int end) {
		while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) {
			end--;
		}
		return end;
	}

}
