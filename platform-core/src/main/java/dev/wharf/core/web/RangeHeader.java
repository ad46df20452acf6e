package dev.wharf.core.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.wharf.core.storage.ByteRange;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;

/**
 * Evaluates a {@code Range} header (RFC 9110, section 14) against a representation's
 * length.
 *
 * <p>
 * Decisions, after Apache's fix for CVE-2011-3192 and nginx: a header that is not a valid
 * {@code bytes} range set, or that asks for more ranges than allowed, is ignored (the
 * client gets the whole representation, which RFC 9110 permits); ranges are sorted, and
 * overlapping or adjacent ones are merged, so a response never repeats bytes and never
 * has more parts than the allowed count.
 *
 * <p>
 * Why not Spring's {@link org.springframework.http.HttpRange#parseRanges}: it neither
 * sorts nor merges ranges, and its limit (100) is fixed where each module sets its own
 * (the file manager allows one); it refuses the unit in another case ({@code Bytes=},
 * which RFC 9110 allows) and numbers past {@code Long.MAX_VALUE} (which mean "to the
 * end"); and it does not tell an unsatisfiable set (416) from a malformed one (ignored),
 * so each caller would redo that. {@code RangeHeaderTests} pins each of these.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class RangeHeader {

	private static final String UNIT = "bytes=";

	private RangeHeader() {
	}

	/**
	 * Evaluates a header.
	 * @param header the {@code Range} header's value
	 * @param length the representation's length in bytes
	 * @param maxRanges most ranges accepted in one header
	 * @return {@code null} if the header is to be ignored (serve everything with 200); an
	 * empty list if no range is satisfiable (416); otherwise the ranges to send, sorted,
	 * merged, each inside the representation
	 */
	public static @Nullable List<ByteRange> evaluate(String header, long length, int maxRanges) {
		// ASCII case only: String.regionMatches would fold 'ſ' to 's'.
		if (!AsciiString.regionMatchesAscii(header, true, 0, UNIT, 0, UNIT.length())) {
			return null;
		}
		List<long[]> specs = parse(header, maxRanges);
		if (specs == null) {
			return null;
		}
		if (length == 0) {
			// Nothing can be cut from an empty file; answer with the (empty) whole, as
			// Apache does.
			return null;
		}
		List<long[]> satisfiable = new ArrayList<>(specs.size());
		for (long[] spec : specs) {
			long first = spec[0];
			long last = spec[1];
			if (first < 0) {
				// A suffix: the last -first bytes.
				long suffix = -first - 1;
				if (suffix == 0) {
					continue;
				}
				satisfiable.add(new long[] { Math.max(0, length - suffix), length - 1 });
			}
			else if (first < length) {
				satisfiable.add(new long[] { first, (last < 0 || last >= length) ? length - 1 : last });
			}
		}
		if (satisfiable.isEmpty()) {
			return Collections.emptyList();
		}
		satisfiable.sort((a, b) -> Long.compare(a[0], b[0]));
		List<ByteRange> merged = new ArrayList<>(satisfiable.size());
		long start = satisfiable.get(0)[0];
		long end = satisfiable.get(0)[1];
		for (int i = 1; i < satisfiable.size(); i++) {
			long[] next = satisfiable.get(i);
			if (next[0] <= end + 1) {
				end = Math.max(end, next[1]);
			}
			else {
				merged.add(ByteRange.of(start, end - start + 1));
				start = next[0];
				end = next[1];
			}
		}
		merged.add(ByteRange.of(start, end - start + 1));
		return merged;
	}

	/**
	 * Parses the range set after {@code bytes=} into {first, last} pairs: last is -1 for
	 * "to the end", and a suffix of n bytes is {-(n+1), -1}.
	 * @return the pairs, or {@code null} if the header is malformed or has too many
	 * ranges
	 */
	private static @Nullable List<long[]> parse(String header, int maxRanges) {
		List<long[]> specs = new ArrayList<>(2);
		int i = UNIT.length();
		int end = header.length();
		while (i < end) {
			i = skipSpaces(header, i);
			if (i < end && header.charAt(i) == ',') {
				// Empty list elements are allowed (RFC 9110, section 5.6.1).
				i++;
				continue;
			}
			if (i >= end) {
				break;
			}
			long first = -1;
			int firstStart = i;
			int firstEnd = i;
			if (header.charAt(i) != '-') {
				firstEnd = digits(header, i);
				if (firstEnd == i) {
					return null;
				}
				first = number(header, i, firstEnd);
				i = firstEnd;
			}
			if (i >= end || header.charAt(i) != '-') {
				return null;
			}
			i++;
			int lastStart = i;
			int digitsEnd = digits(header, i);
			long last = -1;
			if (digitsEnd > i) {
				last = number(header, i, digitsEnd);
				i = digitsEnd;
			}
			if (first < 0 && last < 0) {
				return null;
			}
			if (first < 0) {
				if (last == Long.MAX_VALUE) {
					last = Long.MAX_VALUE - 1;
				}
				specs.add(new long[] { -last - 1, -1 });
			}
			else {
				// Compared as written: both may be past Long.MAX_VALUE, where the
				// saturated values are equal.
				if (last >= 0 && compareDigits(header, lastStart, digitsEnd, firstStart, firstEnd) < 0) {
					return null;
				}
				specs.add(new long[] { first, last });
			}
			if (specs.size() > maxRanges) {
				return null;
			}
			i = skipSpaces(header, i);
			if (i < end && header.charAt(i) != ',') {
				return null;
			}
		}
		return specs.isEmpty() ? null : specs;
	}

	private static int skipSpaces(String s, int i) {
		while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

	private static int digits(String s, int i) {
		while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
			i++;
		}
		return i;
	}

	/** Compares two runs of decimal digits by value, however long they are. */
	private static int compareDigits(String s, int aFrom, int aTo, int bFrom, int bTo) {
		while (aFrom < aTo - 1 && s.charAt(aFrom) == '0') {
			aFrom++;
		}
		while (bFrom < bTo - 1 && s.charAt(bFrom) == '0') {
			bFrom++;
		}
		int byLength = Integer.compare(aTo - aFrom, bTo - bFrom);
		if (byLength != 0) {
			return byLength;
		}
		for (int i = 0; i < aTo - aFrom; i++) {
			int byDigit = Character.compare(s.charAt(aFrom + i), s.charAt(bFrom + i));
			if (byDigit != 0) {
				return byDigit;
			}
		}
		return 0;
	}

	/**
	 * The number in s[from, to), saturated at Long.MAX_VALUE (a range past any file is
	 * still a range).
	 */
	private static long number(String s, int from, int to) {
		long value = 0;
		for (int i = from; i < to; i++) {
			int digit = s.charAt(i) - '0';
			if (value > (Long.MAX_VALUE - digit) / 10) {
				return Long.MAX_VALUE;
			}
			value = value * 10 + digit;
		}
		return value;
	}

}
