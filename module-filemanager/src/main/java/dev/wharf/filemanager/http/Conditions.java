package dev.wharf.filemanager.http;

import java.time.Instant;
import java.util.List;

import org.springframework.http.HttpHeaders;

/**
 * Conditional request headers ({@code If-None-Match}, {@code If-Modified-Since}, {@code If-Range},
 * {@code If-Unmodified-Since}) evaluated as RFC 9110 says, for entity tags and modification times the
 * handlers compute themselves. Malformed dates are ignored, as the RFC asks.
 */
public final class Conditions {

	private Conditions() {
	}

	/**
	 * Whether {@code If-None-Match} names the current entity tag (or {@code *}), so the answer is
	 * {@code 304 Not Modified}. Weak comparison, as the RFC asks for this header.
	 * @param headers the request headers
	 * @param etag the current entity tag, quoted
	 * @return whether the client already has it
	 */
	public static boolean noneMatch(HttpHeaders headers, String etag) {
		List<String> values = headers.get(HttpHeaders.IF_NONE_MATCH);
		if (values == null) {
			return false;
		}
		String opaque = opaque(etag);
		for (String value : values) {
			for (String candidate : value.split(",")) {
				String tag = candidate.trim();
				if (tag.equals("*") || opaque(tag).equals(opaque)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Whether the client's copy is current by date: {@code If-Modified-Since} at or after the last
	 * modification (to the second), and no {@code If-None-Match} (which takes precedence).
	 * @param headers the request headers
	 * @param lastModified the current modification time
	 * @return whether to answer {@code 304 Not Modified}
	 */
	public static boolean notModifiedSince(HttpHeaders headers, Instant lastModified) {
		if (headers.containsHeader(HttpHeaders.IF_NONE_MATCH)) {
			return false;
		}
		long since = date(headers, HttpHeaders.IF_MODIFIED_SINCE);
		return since >= 0 && lastModified.getEpochSecond() <= since / 1000;
	}

	/**
	 * Whether {@code If-Unmodified-Since} fails: the resource changed after the given date.
	 * @param headers the request headers
	 * @param lastModified the current modification time
	 * @return whether to answer {@code 412 Precondition Failed}
	 */
	public static boolean modifiedSince(HttpHeaders headers, Instant lastModified) {
		long since = date(headers, HttpHeaders.IF_UNMODIFIED_SINCE);
		return since >= 0 && lastModified.getEpochSecond() > since / 1000;
	}

	/**
	 * Whether a {@code Range} may be honoured: no {@code If-Range}, or one that names the current entity tag
	 * (strongly) or the current modification date.
	 * @param headers the request headers
	 * @param etag the current strong entity tag
	 * @param lastModified the current modification time
	 * @return whether to serve the range (otherwise the whole content)
	 */
	public static boolean rangeStillValid(HttpHeaders headers, String etag, Instant lastModified) {
		String ifRange = headers.getFirst(HttpHeaders.IF_RANGE);
		if (ifRange == null) {
			return true;
		}
		ifRange = ifRange.trim();
		if (ifRange.startsWith("\"") || ifRange.startsWith("W/")) {
			return ifRange.equals(etag);
		}
		long date = date(headers, HttpHeaders.IF_RANGE);
		return date >= 0 && lastModified.getEpochSecond() == date / 1000;
	}

	/**
	 * The presence of {@code If-Unmodified-Since}.
	 * @param headers the request headers
	 * @return whether the header is there
	 */
	public static boolean hasUnmodifiedSince(HttpHeaders headers) {
		return headers.containsHeader(HttpHeaders.IF_UNMODIFIED_SINCE);
	}

	private static String opaque(String tag) {
		return tag.startsWith("W/") ? tag.substring(2) : tag;
	}

	private static long date(HttpHeaders headers, String name) {
		try {
			return headers.getFirstDate(name);
		}
		catch (IllegalArgumentException ex) {
			return -1;
		}
	}

}
