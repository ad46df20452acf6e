package dev.wharf.core.web;

import java.time.Instant;
import java.util.Date;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;

/**
 * HTTP dates (RFC 9110, section 5.6.7): formatting, lenient parsing of the three formats
 * recipients must accept, and the current {@code Date} header value, formatted once per
 * second rather than per response.
 *
 * <p>
 * Thread-safe.
 */
public final class HttpDates {

	/**
	 * Longer than any HTTP date, even with the spaces lenient parsing skips; longer
	 * values are invalid.
	 */
	private static final int MAX_LENGTH = 64;

	private static volatile Now now = new Now(-1, AsciiString.EMPTY_STRING);

	private HttpDates() {
	}

	/**
	 * Formats an instant, to the second.
	 * @param instant the instant
	 * @return such as {@code Sun, 06 Nov 1994 08:49:37 GMT}
	 */
	public static String format(Instant instant) {
		return DateFormatter.format(Date.from(instant));
	}

	/**
	 * Parses a date in any of the HTTP formats.
	 * @param value a header's value
	 * @return the instant, or {@code null} if it is not a valid date (the header is then
	 * ignored)
	 */
	public static @Nullable Instant parse(@Nullable CharSequence value) {
		if (value == null || value.length() > MAX_LENGTH) {
			// Netty's parser throws past 64 characters rather than answering "not a
			// date".
			return null;
		}
		Date date = DateFormatter.parseHttpDate(value);
		return (date != null) ? date.toInstant() : null;
	}

	/**
	 * The value of the {@code Date} header for a response sent now.
	 * @return the current time, to the second
	 */
	public static AsciiString now() {
		long second = System.currentTimeMillis() / 1000;
		Now current = now;
		if (current.second != second) {
			current = new Now(second, AsciiString.cached(DateFormatter.format(new Date(second * 1000))));
			now = current;
		}
		return current.value;
	}

	private record Now(long second, AsciiString value) {
	}

}
