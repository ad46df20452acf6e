package dev.wharf.filemanager.http;

import java.time.Instant;
import java.util.List;

import dev.wharf.core.web.EntityTags;
import dev.wharf.core.web.Preconditions;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * The conditional request headers of the file manager ({@code If-None-Match},
 * {@code If-Modified-Since}, {@code If-Range}, {@code If-Unmodified-Since}), read from
 * Spring's request headers and evaluated by platform-core's {@link Preconditions}, so the
 * file manager and the static server follow the same rules (RFC 9110, section 13:
 * precedence, weak and strong comparison, invalid dates ignored).
 */
public final class Conditions {

	private Conditions() {
	}

	/**
	 * Whether {@code If-None-Match} names the current entity tag (or is {@code *}), so
	 * the answer is {@code 304 Not Modified}. Uses weak comparison.
	 * @param headers the request headers
	 * @param etag the current entity tag, quoted
	 * @return whether the client already has it
	 */
	public static boolean noneMatch(HttpHeaders headers, String etag) {
		String ifNoneMatch = list(headers, HttpHeaders.IF_NONE_MATCH);
		return ifNoneMatch != null && EntityTags.matches(ifNoneMatch, etag, true);
	}

	/**
	 * Whether the client's copy is current: {@code If-None-Match} names the tag, or,
	 * without that header, {@code If-Modified-Since} is at or after the last modification
	 * (to the second).
	 * @param headers the request headers
	 * @param etag the current entity tag, quoted
	 * @param lastModified the current modification time
	 * @return whether to answer {@code 304 Not Modified}
	 */
	public static boolean notModified(HttpHeaders headers, String etag, Instant lastModified) {
		return Preconditions.evaluate(null, null, list(headers, HttpHeaders.IF_NONE_MATCH),
				headers.getFirst(HttpHeaders.IF_MODIFIED_SINCE), etag,
				lastModified) == Preconditions.Outcome.NOT_MODIFIED;
	}

	/**
	 * Whether {@code If-Unmodified-Since} fails: the resource changed after the given
	 * date.
	 * @param headers the request headers
	 * @param lastModified the current modification time
	 * @return whether to answer {@code 412 Precondition Failed}
	 */
	public static boolean modifiedSince(HttpHeaders headers, Instant lastModified) {
		String ifUnmodifiedSince = headers.getFirst(HttpHeaders.IF_UNMODIFIED_SINCE);
		return ifUnmodifiedSince != null && Preconditions.modifiedSince(ifUnmodifiedSince, lastModified);
	}

	/**
	 * Whether a {@code Range} may be honoured: no {@code If-Range}, or one that names the
	 * current entity tag (strongly) or the current modification date.
	 * @param headers the request headers
	 * @param etag the current strong entity tag
	 * @param lastModified the current modification time
	 * @return whether to serve the range (otherwise the whole content)
	 */
	public static boolean rangeStillValid(HttpHeaders headers, String etag, Instant lastModified) {
		String ifRange = headers.getFirst(HttpHeaders.IF_RANGE);
		return ifRange == null || Preconditions.ifRangeHolds(ifRange, etag, lastModified);
	}

	/**
	 * The presence of {@code If-Unmodified-Since}.
	 * @param headers the request headers
	 * @return whether the header is there
	 */
	public static boolean hasUnmodifiedSince(HttpHeaders headers) {
		return headers.containsHeader(HttpHeaders.IF_UNMODIFIED_SINCE);
	}

	/**
	 * A list header's lines joined as one value (RFC 9110, section 5.3), or {@code null}
	 * if absent.
	 */
	private static @Nullable String list(HttpHeaders headers, String name) {
		List<String> values = headers.get(name);
		return (values == null || values.isEmpty()) ? null : String.join(", ", values);
	}

}
