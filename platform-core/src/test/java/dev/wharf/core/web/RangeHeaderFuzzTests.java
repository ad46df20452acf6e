package dev.wharf.core.web;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wharf.core.storage.ByteRange;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes {@link RangeHeader#evaluate} against a plain reading of RFC 9110 section 14,
 * written with regular expressions and {@link BigInteger} so that it shares nothing with
 * the parser. The two must agree on every header, length and range limit: ignored
 * ({@code null}), unsatisfiable (empty) or the same ranges. Each range must lie inside
 * the representation and the ranges must be sorted, neither overlapping nor touching, and
 * never more than the limit.
 */
class RangeHeaderFuzzTests {

	private static final Pattern FIRST_LAST = Pattern.compile("([0-9]+)-([0-9]*)");

	private static final Pattern SUFFIX = Pattern.compile("-([0-9]+)");

	@FuzzTest(maxDuration = "5m")
	void evaluate(FuzzedDataProvider data) {
		long length = data.consumeBoolean() ? data.consumeLong(0, 10_000) : data.consumeLong(0, Long.MAX_VALUE);
		int maxRanges = data.consumeInt(1, 20);
		String header = data.consumeRemainingAsString();

		List<ByteRange> ranges = RangeHeader.evaluate(header, length, maxRanges);
		List<ByteRange> expected = reference(header, length, maxRanges);

		assertThat(ranges).as("header %s, length %d, at most %d", header, length, maxRanges).isEqualTo(expected);
		if (ranges != null) {
			assertThat(ranges.size()).isLessThanOrEqualTo(maxRanges);
			long previousEnd = -2;
			for (ByteRange range : ranges) {
				assertThat(range.length()).isPositive();
				assertThat(range.offset()).isGreaterThan(previousEnd + 1).isGreaterThanOrEqualTo(0);
				previousEnd = range.offset() + range.length() - 1;
				assertThat(previousEnd).isLessThan(length);
			}
		}
	}

	/**
	 * RFC 9110's grammar read literally: {@code bytes=} (ASCII, any case), a list of
	 * OWS-separated specs.
	 */
	private static @Nullable List<ByteRange> reference(String header, long length, int maxRanges) {
		if (header.length() < 6 || !header.substring(0, 6).toLowerCase(Locale.ROOT).equals("bytes=")
				|| !isAscii(header.substring(0, 6))) {
			return null;
		}
		List<BigInteger[]> specs = new ArrayList<>();
		for (String element : header.substring(6).split(",", -1)) {
			String spec = element.replaceAll("^[ \\t]+|[ \\t]+$", "");
			if (spec.isEmpty()) {
				continue;
			}
			Matcher firstLast = FIRST_LAST.matcher(spec);
			Matcher suffix = SUFFIX.matcher(spec);
			if (firstLast.matches()) {
				BigInteger first = new BigInteger(firstLast.group(1));
				BigInteger last = firstLast.group(2).isEmpty() ? null : new BigInteger(firstLast.group(2));
				if (last != null && last.compareTo(first) < 0) {
					return null;
				}
				specs.add(new BigInteger[] { first, last });
			}
			else if (suffix.matches()) {
				specs.add(new BigInteger[] { null, new BigInteger(suffix.group(1)) });
			}
			else {
				return null;
			}
			if (specs.size() > maxRanges) {
				return null;
			}
		}
		if (specs.isEmpty() || length == 0) {
			return null;
		}
		BigInteger size = BigInteger.valueOf(length);
		BigInteger lastByte = size.subtract(BigInteger.ONE);
		List<long[]> wanted = new ArrayList<>();
		for (BigInteger[] spec : specs) {
			if (spec[0] == null) {
				if (spec[1].signum() > 0) {
					wanted.add(new long[] { size.subtract(spec[1].min(size)).longValueExact(), length - 1 });
				}
			}
			else if (spec[0].compareTo(size) < 0) {
				BigInteger end = (spec[1] == null) ? lastByte : spec[1].min(lastByte);
				wanted.add(new long[] { spec[0].longValueExact(), end.longValueExact() });
			}
		}
		wanted.sort((a, b) -> Long.compare(a[0], b[0]));
		List<ByteRange> union = new ArrayList<>();
		long start = -1;
		long end = -1;
		for (long[] range : wanted) {
			if (start >= 0 && range[0] <= end + 1) {
				end = Math.max(end, range[1]);
				continue;
			}
			if (start >= 0) {
				union.add(ByteRange.of(start, end - start + 1));
			}
			start = range[0];
			end = range[1];
		}
		if (start >= 0) {
			union.add(ByteRange.of(start, end - start + 1));
		}
		return union;
	}

	private static boolean isAscii(String text) {
		return text.chars().allMatch(c -> c < 0x80);
	}

}
