package dev.wharf.filemanager.files;

import dev.wharf.core.storage.ByteRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ByteRanges}, against a 100-byte file.
 */
class ByteRangesTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', nullValues = "none", value = { "bytes=0-9|0|10", "bytes=90-|90|10", "bytes=90-200|90|10",
			"bytes=-10|90|10", "bytes=-500|0|100", "BYTES=5-5|5|1", "bytes=0-0,5-6|none|none", "bytes=9-5|none|none",
			"bytes=a-b|none|none", "items=0-5|none|none", "bytes=-|none|none", "bytes=99999999999999999999-|none|none" })
	void parsesOneRangeOrIgnoresTheHeader(String header, Long offset, Long length) {
		ByteRange range = ByteRanges.parse(header, 100);
		if (offset == null) {
			assertThat(range).isNull();
		}
		else {
			assertThat(range).isEqualTo(ByteRange.of(offset, length));
		}
	}

	@ParameterizedTest
	@CsvSource({ "bytes=100-", "bytes=150-160", "bytes=-0" })
	void rangesPastTheEndAreUnsatisfiable(String header) {
		assertThat(ByteRanges.parse(header, 100)).isSameAs(ByteRanges.UNSATISFIABLE);
	}

}
