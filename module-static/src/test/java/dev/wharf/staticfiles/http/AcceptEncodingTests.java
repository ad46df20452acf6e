package dev.wharf.staticfiles.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AcceptEncoding}.
 */
class AcceptEncodingTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "gzip|gzip|1", "gzip, br|br|1", "br;q=0.5|br|0.5", "br; q=0.25 , gzip|br|0.25", "gzip;q=0|gzip|0",
					"*|br|1", "*;q=0.3|gzip|0.3", "*, gzip;q=0|gzip|0", "deflate|gzip|0", "x-gzip|gzip|1", "BR|br|1",
					"br;Q=0.7|br|0.7", "br;q=2|br|0", "br;q=-1|br|0", "br;q=abc|br|0", "br;level=5;q=0.8|br|0.8",
					"brotli|br|0", "|gzip|0", " , |gzip|0" })
	void quality(String header, String coding, float expected) {
		assertThat(AcceptEncoding.quality((header == null) ? "" : header, coding)).isEqualTo(expected);
	}

}
