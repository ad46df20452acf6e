package dev.wharf.core.web;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the conditional request headers that the static server and the file manager
 * share.
 * <ul>
 * <li>{@link EntityTags#matches} must agree with RFC 9110's grammar (section 8.8.3) on
 * every well-formed list. It may be lenient with malformed lists, but it never
 * throws.</li>
 * <li>{@link HttpDates} must read back what it writes, to the second, and never
 * throw.</li>
 * <li>{@link Preconditions#evaluate} must keep the precedence of section 13.2.2:
 * {@code If-Match} hides {@code If-Unmodified-Since}, and {@code If-None-Match} hides
 * {@code If-Modified-Since}.</li>
 * </ul>
 */
class PreconditionsFuzzTests {

	/**
	 * One element of an entity-tag list: optional W/, a quoted opaque tag of etagc
	 * characters.
	 */
	private static final Pattern ELEMENT = Pattern.compile("(W/)?\"[\\x21\\x23-\\x7E\\x80-\\xFF]*\"");

	private static final long YEAR_9999 = 253_402_300_799L;

	@FuzzTest(maxDuration = "5m")
	void entityTagLists(FuzzedDataProvider data) {
		String tag = EntityTags.of(data.consumeLong(0, Long.MAX_VALUE), instant(data));
		if (data.consumeBoolean()) {
			tag = EntityTags.weak(tag);
		}
		boolean weakComparison = data.consumeBoolean();
		String header = data.consumeRemainingAsString();

		boolean matches = EntityTags.matches(header, tag, weakComparison);
		Boolean expected = reference(header, tag, weakComparison);
		if (expected != null) {
			assertThat(matches).as("%s against %s (weak comparison: %s)", header, tag, weakComparison)
				.isEqualTo(expected);
			String withTag = header.isBlank() ? tag : header + ", " + tag;
			boolean canMatch = weakComparison || !tag.startsWith("W/");
			assertThat(EntityTags.matches(withTag, tag, weakComparison)).as(withTag)
				.isEqualTo(canMatch || Boolean.TRUE.equals(reference(withTag, tag, weakComparison)));
		}
	}

	@FuzzTest(maxDuration = "5m")
	void httpDates(FuzzedDataProvider data) {
		Instant instant = instant(data);
		assertThat(HttpDates.parse(HttpDates.format(instant)))
			.isEqualTo(Instant.ofEpochSecond(instant.getEpochSecond()));
		Instant parsed = HttpDates.parse(data.consumeRemainingAsString());
		if (parsed != null) {
			assertThat(HttpDates.parse(HttpDates.format(parsed)))
				.isEqualTo(Instant.ofEpochSecond(parsed.getEpochSecond()));
		}
	}

	@FuzzTest(maxDuration = "5m")
	void precedence(FuzzedDataProvider data) {
		String etag = EntityTags.of(data.consumeLong(0, 1 << 20), instant(data));
		Instant lastModified = instant(data);
		String ifMatch = header(data);
		String ifUnmodifiedSince = header(data);
		String ifNoneMatch = header(data);
		String ifModifiedSince = header(data);

		Preconditions.Outcome outcome = Preconditions.evaluate(ifMatch, ifUnmodifiedSince, ifNoneMatch, ifModifiedSince,
				etag, lastModified);
		if (ifMatch != null) {
			assertThat(Preconditions.evaluate(ifMatch, null, ifNoneMatch, ifModifiedSince, etag, lastModified))
				.isEqualTo(outcome);
		}
		if (ifNoneMatch != null) {
			assertThat(Preconditions.evaluate(ifMatch, ifUnmodifiedSince, ifNoneMatch, null, etag, lastModified))
				.isEqualTo(outcome);
		}
		if (outcome == Preconditions.Outcome.FAILED) {
			assertThat(ifMatch != null || ifUnmodifiedSince != null).isTrue();
		}
	}

	/**
	 * Whether a well-formed list matches, as RFC 9110 reads it; {@code null} if the list
	 * is not well-formed.
	 */
	private static @Nullable Boolean reference(String header, String tag, boolean weakComparison) {
		String trimmed = header.strip();
		if (trimmed.equals("*")) {
			return true;
		}
		List<String> elements = new ArrayList<>();
		for (String element : header.split(",", -1)) {
			String value = element.replaceAll("^[ \\t]+|[ \\t]+$", "");
			if (value.isEmpty()) {
				continue;
			}
			Matcher matcher = ELEMENT.matcher(value);
			if (!matcher.matches()) {
				return null;
			}
			elements.add(value);
		}
		if (elements.isEmpty()) {
			return null;
		}
		for (String element : elements) {
			boolean same = weakComparison ? opaque(element).equals(opaque(tag))
					: (!element.startsWith("W/") && !tag.startsWith("W/") && element.equals(tag));
			if (same) {
				return true;
			}
		}
		return false;
	}

	private static String opaque(String tag) {
		return tag.startsWith("W/") ? tag.substring(2) : tag;
	}

	private static Instant instant(FuzzedDataProvider data) {
		return Instant.ofEpochSecond(data.consumeLong(0, YEAR_9999),
				data.consumeBoolean() ? 0 : data.consumeInt(0, 999_999_999));
	}

	private static @Nullable String header(FuzzedDataProvider data) {
		return data.consumeBoolean() ? data.consumeString(60) : null;
	}

}
