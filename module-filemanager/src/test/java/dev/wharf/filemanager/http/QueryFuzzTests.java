package dev.wharf.filemanager.http;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.PercentDecoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fuzzes the file manager's query parameters ({@link Query}), with the names its handlers
 * read. A raw query is split on {@code &} only, and a parameter's values are exactly the
 * parts named {@code name} or starting with {@code name=}, decoded once. Nothing else
 * throws, where the decoding refuses an input that is the error, and a parameter read
 * once but sent twice is a 400. Values that a client encodes come back unchanged, in
 * order, whatever they hold.
 */
class QueryFuzzTests {

	private static final String[] NAMES = { "path", "q", "name", "id", "days", "all", "write", "thumbnail", "username",
			"password" };

	@FuzzTest(maxDuration = "5m")
	void parse(FuzzedDataProvider data) {
		String name = NAMES[data.consumeInt(0, NAMES.length - 1)];
		String raw = data.consumeRemainingAsString();
		Query query = new Query(raw);
		List<String> rawValues = rawValues(raw, name);
		boolean decodable = rawValues.stream().allMatch(QueryFuzzTests::decodes);
		if (!decodable) {
			assertThatExceptionOfType(InvalidStoragePathException.class).isThrownBy(() -> query.all(name));
			return;
		}
		List<String> expected = rawValues.stream()
			.map(value -> URLDecoder.decode(value, StandardCharsets.UTF_8))
			.toList();
		assertThat(query.all(name)).as("query %s, parameter %s", raw, name).isEqualTo(expected);
		if (expected.size() > 1) {
			assertThatExceptionOfType(ApiException.class).isThrownBy(() -> query.optional(name));
		}
		else {
			assertThat(query.optional(name)).isEqualTo(expected.isEmpty() ? null : expected.get(0));
			assertThat(query.flag(name)).isEqualTo(!expected.isEmpty()
					&& (expected.get(0).isEmpty() || expected.get(0).equals("true") || expected.get(0).equals("1")));
		}
	}

	@FuzzTest(maxDuration = "5m")
	void encodedValuesComeBackUnchanged(FuzzedDataProvider data) {
		int count = data.consumeInt(0, 8);
		List<String[]> pairs = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String value = data.consumeString(64);
			if (!StandardCharsets.UTF_8.newEncoder().canEncode(value) || value.indexOf('\0') >= 0) {
				// Not text a client can send as UTF-8 (or a NUL, which the strict
				// decoding refuses).
				return;
			}
			pairs.add(new String[] { NAMES[data.consumeInt(0, NAMES.length - 1)], value });
		}
		StringBuilder raw = new StringBuilder();
		for (String[] pair : pairs) {
			raw.append(raw.isEmpty() ? "" : "&")
				.append(pair[0])
				.append('=')
				.append(URLEncoder.encode(pair[1], StandardCharsets.UTF_8));
		}
		Query query = new Query(raw.toString());
		for (String name : NAMES) {
			List<String> expected = pairs.stream().filter(pair -> pair[0].equals(name)).map(pair -> pair[1]).toList();
			assertThat(query.all(name)).as("query %s, parameter %s", raw, name).isEqualTo(expected);
		}
	}

	/**
	 * The parameter's raw values, read the plain way: split on '&', keep "name" and
	 * "name=...".
	 */
	private static List<String> rawValues(String raw, String name) {
		List<String> values = new ArrayList<>();
		for (String part : raw.split("&", -1)) {
			if (part.equals(name)) {
				values.add("");
			}
			else if (part.startsWith(name + "=")) {
				values.add(part.substring(name.length() + 1));
			}
		}
		return values;
	}

	private static boolean decodes(String value) {
		try {
			PercentDecoding.decodeQueryValue(value);
			return true;
		}
		catch (InvalidStoragePathException ex) {
			return false;
		}
	}

}
