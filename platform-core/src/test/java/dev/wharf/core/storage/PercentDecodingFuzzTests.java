package dev.wharf.core.storage;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes {@link PercentDecoding#decodeQueryValue}: every input is refused with
 * {@link InvalidStoragePathException} or decodes to well-formed text that the JDK's
 * lenient {@link URLDecoder} reads the same way (so strictness only ever refuses, never
 * reinterprets), that holds no NUL and survives an encode/decode round trip.
 */
class PercentDecodingFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void decodeQueryValue(FuzzedDataProvider data) {
		String raw = data.consumeRemainingAsString();
		String decoded;
		try {
			decoded = PercentDecoding.decodeQueryValue(raw);
		}
		catch (InvalidStoragePathException ex) {
			return;
		}
		assertThat(isWellFormed(decoded)).as("well-formed Unicode: %s", decoded).isTrue();
		assertThat(URLDecoder.decode(raw, StandardCharsets.UTF_8)).isEqualTo(decoded);
		assertThat(PercentDecoding.decodeQueryValue(URLEncoder.encode(decoded, StandardCharsets.UTF_8)))
			.isEqualTo(decoded);
		assertThat(decoded).as("no NUL, encoded or literal").doesNotContain("\0");
	}

	/** No lone surrogate: exactly what a UTF-8 encoder can encode. */
	private static boolean isWellFormed(String text) {
		return StandardCharsets.UTF_8.newEncoder().canEncode(text);
	}

}
