package dev.wharf.core.web;

import java.util.List;
import java.util.Random;

import dev.wharf.core.storage.ByteRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RangeHeader}.
 */
class RangeHeaderTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "bytes=0-9|0:10", "bytes=10-|10:90", "bytes=-10|90:10", "bytes=-1000|0:100",
					"bytes=50-5000|50:50", "bytes=99-99|99:1", "bytes=0-0,-1|0:1 99:1", "bytes=0-9,5-19|0:20",
					"bytes=0-9,10-19|0:20", "bytes=20-29,0-9|0:10 20:10", "bytes= 1-2 , 4-5 |1:2 4:2",
					"bytes=1-2,,4-5|1:2 4:2", "Bytes=3-4|3:2", "bytes=0-99999999999999999999999|0:100",
					"bytes=-99999999999999999999999|0:100", "bytes=200-300,0-0|0:1" })
	void satisfiableRangesAreClampedSortedAndMerged(String header, String expected) {
		List<ByteRange> ranges = RangeHeader.evaluate(header, 100, 16);
		assertThat(ranges).isNotNull();
		assertThat(ranges.stream().map(range -> range.offset() + ":" + range.length()).toList())
			.containsExactly(expected.split(" "));
	}

	@ParameterizedTest
	@ValueSource(strings = { "bytes=100-", "bytes=100-200", "bytes=-0", "bytes=150-160,-0", "bytes=100-100" })
	void unsatisfiableRangesGiveAnEmptyList(String header) {
		assertThat(RangeHeader.evaluate(header, 100, 16)).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "bytes=5-1", "bytes=a-1", "bytes=1-b", "bytes=-", "bytes=", "bytes=,", "bytes=1-2;",
			"bytes=1--2", "bytes=--5", "bytes 1-2", "items=1-2", "bytes=1-2 3-4", "bytes=0x1-2", "bytes=+1-2", "",
			// Backwards past Long.MAX_VALUE, where both ends saturate (found by
			// RangeHeaderFuzzTests).
			"bytes=0-1,111111111111111111111111-1111111111111111111111", "byte\u017f=0-1" })
	void malformedHeadersAreIgnored(String header) {
		assertThat(RangeHeader.evaluate(header, 100, 16)).isNull();
	}

	@Test
	void moreRangesThanAllowedAreIgnoredEvenIfTheyWouldMerge() {
		String header = "bytes=" + "0-1,".repeat(16) + "0-1";
		assertThat(RangeHeader.evaluate(header, 100, 16)).isNull();
		assertThat(RangeHeader.evaluate("bytes=" + "0-1,".repeat(15) + "0-1", 100, 16)).hasSize(1);
	}

	@Test
	void withOneRangeAllowedSeveralAreIgnoredAsTheFileManagerWants() {
		assertThat(RangeHeader.evaluate("bytes=0-0,5-6", 100, 1)).isNull();
		assertThat(RangeHeader.evaluate("bytes=90-", 100, 1)).containsExactly(ByteRange.of(90, 10));
		assertThat(RangeHeader.evaluate("bytes=150-160", 100, 1)).isEmpty();
	}

	@Test
	void anEmptyRepresentationIgnoresRanges() {
		assertThat(RangeHeader.evaluate("bytes=0-0", 0, 16)).isNull();
		assertThat(RangeHeader.evaluate("bytes=-5", 0, 16)).isNull();
	}

	@Test
	void mergedRangesNeverOverlapAndStayInside() {
		Random random = new Random(42);
		for (int i = 0; i < 2000; i++) {
			long length = 1 + random.nextInt(1000);
			StringBuilder header = new StringBuilder("bytes=");
			int count = 1 + random.nextInt(16);
			for (int j = 0; j < count; j++) {
				long a = random.nextInt(1200);
				long b = a + random.nextInt(300);
				header.append(j > 0 ? "," : "").append(random.nextInt(5) == 0 ? "-" + b : a + "-" + b);
			}
			List<ByteRange> ranges = RangeHeader.evaluate(header.toString(), length, 16);
			assertThat(ranges).as(header.toString()).isNotNull();
			// Merged ranges leave at least one byte between them.
			long end = -2;
			for (ByteRange range : ranges) {
				assertThat(range.offset()).as(header.toString()).isGreaterThan(end + 1).isLessThan(length);
				assertThat(range.length()).isPositive();
				end = range.offset() + range.length() - 1;
				assertThat(end).isLessThan(length);
			}
		}
	}

}
