package dev.wharf.core.storage;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the three ways a path enters Wharf. Each input must either be refused with
 * {@link InvalidStoragePathException} (any other exception is a finding) or give a path
 * that keeps every rule of {@link StoragePath}: no {@code .}/{@code ..}/empty names, no
 * separators, backslashes or control characters in a name, NFC names within the limits,
 * nothing reserved, and a text form that parses back to the same path.
 *
 * <p>
 * {@code ./mvnw verify} replays the committed inputs (known path attacks such as dot
 * segments, encoded separators, drive names, look-alike dots and overlong UTF-8, and
 * every finding) from {@code StoragePathFuzzTestsInputs/<method>/};
 * {@code scripts/fuzz.sh} fuzzes.
 */
class StoragePathFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void parse(FuzzedDataProvider data) {
		String input = data.consumeRemainingAsString();
		StoragePath path;
		try {
			path = StoragePath.parse(input);
		}
		catch (InvalidStoragePathException ex) {
			return;
		}
		checkRules(path);
	}

	@FuzzTest(maxDuration = "5m")
	void parseUriPath(FuzzedDataProvider data) {
		String raw = data.consumeRemainingAsString();
		StoragePath path;
		try {
			path = StoragePath.parseUriPath(raw);
		}
		catch (InvalidStoragePathException ex) {
			return;
		}
		checkRules(path);
		// An encoded separator or NUL never gets through, however it is spelled.
		String lower = raw.toLowerCase(Locale.ROOT);
		assertThat(lower).doesNotContain("%2f", "%5c", "%00");
	}

	@FuzzTest(maxDuration = "5m")
	void parseUtf8(FuzzedDataProvider data) {
		byte[] bytes = data.consumeRemainingAsBytes();
		StoragePath path;
		try {
			path = StoragePath.parseUtf8(bytes);
		}
		catch (InvalidStoragePathException ex) {
			return;
		}
		checkRules(path);
		// Accepted bytes are well-formed UTF-8: the lenient decoder reads them the same
		// way.
		assertThat(StoragePath.parse(new String(bytes, StandardCharsets.UTF_8))).isEqualTo(path);
	}

	/** The promises of {@link StoragePath}'s Javadoc, checked on an accepted path. */
	static void checkRules(StoragePath path) {
		assertThat(path.depth()).isLessThanOrEqualTo(StoragePath.MAX_DEPTH);
		for (String name : path.segments()) {
			assertThat(name).isNotEmpty().isNotEqualTo(".").isNotEqualTo("..").doesNotContain("/", "\\");
			assertThat(StoragePath.isReservedName(name)).as("reserved name %s", name).isFalse();
			assertThat(Normalizer.isNormalized(name, Normalizer.Form.NFC)).as("NFC: %s", name).isTrue();
			assertThat(name.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(StoragePath.MAX_SEGMENT_BYTES);
			name.chars()
				.forEach(c -> assertThat(c < 0x20 || (c >= 0x7f && c <= 0x9f)).as("control character").isFalse());
			assertThat(StoragePath.isValidName(name)).as("valid name %s", name).isTrue();
		}
		String text = path.toString();
		assertThat(text.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(StoragePath.MAX_PATH_BYTES);
		assertThat(StoragePath.parse(text)).isEqualTo(path);
	}

}
