package dev.wharf.core.web;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The conditional request headers of a GET or HEAD, evaluated in the order of RFC 9110,
 * section 13.2.2: {@code If-Match}, then {@code If-Unmodified-Since} (only without
 * {@code If-Match}), then {@code If-None-Match}, then {@code If-Modified-Since} (only
 * without {@code If-None-Match}); and {@code If-Range}. Dates compare to the second, as
 * HTTP dates have no finer unit. An invalid date is ignored, as the RFC asks.
 *
 * <p>
 * Why not WebFlux's {@code ServerWebExchange.checkNotModified}: static sites answer on
 * raw Reactor Netty, ahead of WebFlux, where there is no exchange; it has no
 * {@code If-Range}, which both the static server and the file manager's downloads need;
 * it reads tags with Spring's {@code ETag.parse} (see {@link EntityTags} for why not);
 * and it sets the response's status and headers itself, where the file manager's
 * downloads evaluate only {@code If-None-Match} and {@code If-Modified-Since}. One
 * implementation keeps both modules on the same rules.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class Preconditions {

	/** What to answer. */
	public enum Outcome {

		/** Send the representation (or its ranges). */
		PROCEED,

		/** 304 Not Modified. */
		NOT_MODIFIED,

		/** 412 Precondition Failed. */
		FAILED

	}

	private Preconditions() {
	}

	/**
	 * Evaluates the conditions.
	 * @param ifMatch {@code If-Match}, or {@code null}
	 * @param ifUnmodifiedSince {@code If-Unmodified-Since}, or {@code null}
	 * @param ifNoneMatch {@code If-None-Match}, or {@code null}
	 * @param ifModifiedSince {@code If-Modified-Since}, or {@code null}
	 * @param etag the representation's tag
	 * @param lastModified its modification time
	 * @return what to answer
	 */
	public static Outcome evaluate(@Nullable String ifMatch, @Nullable String ifUnmodifiedSince,
			@Nullable String ifNoneMatch, @Nullable String ifModifiedSince, String etag, Instant lastModified) {
		if (ifMatch != null) {
			if (!EntityTags.matches(ifMatch, etag, false)) {
				return Outcome.FAILED;
			}
		}
		else if (ifUnmodifiedSince != null && modifiedSince(ifUnmodifiedSince, lastModified)) {
			return Outcome.FAILED;
		}
		if (ifNoneMatch != null) {
			return EntityTags.matches(ifNoneMatch, etag, true) ? Outcome.NOT_MODIFIED : Outcome.PROCEED;
		}
		if (ifModifiedSince != null) {
			Instant since = HttpDates.parse(ifModifiedSince);
			if (since != null && lastModified.getEpochSecond() <= since.getEpochSecond()) {
				return Outcome.NOT_MODIFIED;
			}
		}
		return Outcome.PROCEED;
	}

	/**
	 * Whether an {@code If-Unmodified-Since} condition fails: the representation changed
	 * after the date.
	 * @param ifUnmodifiedSince the header's value
	 * @param lastModified the representation's modification time
	 * @return whether to answer 412; {@code false} for an invalid date, which is ignored
	 */
	public static boolean modifiedSince(String ifUnmodifiedSince, Instant lastModified) {
		Instant since = HttpDates.parse(ifUnmodifiedSince);
		return since != null && lastModified.getEpochSecond() > since.getEpochSecond();
	}

	/**
	 * Whether an {@code If-Range} condition holds, so that the {@code Range} header
	 * applies: a strong tag equal to the current one, or a date equal to the modification
	 * time.
	 * @param ifRange the header's value
	 * @param etag the representation's tag
	 * @param lastModified its modification time
	 * @return whether to honour {@code Range}; otherwise the whole representation is sent
	 */
	public static boolean ifRangeHolds(String ifRange, String etag, Instant lastModified) {
		String value = ifRange.trim();
		if (value.startsWith("\"") || value.startsWith("W/")) {
			return !value.startsWith("W/") && EntityTags.matches(value, etag, false);
		}
		Instant date = HttpDates.parse(value);
		return date != null && date.getEpochSecond() == lastModified.getEpochSecond();
	}

}
