package dev.wharf.filemanager.http;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JsonWriter}: its output is read back by Jackson.
 */
class JsonWriterTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void writesNestedStructuresWithCommasInTheRightPlaces() {
		JsonWriter json = new JsonWriter(4);
		json.beginObject().name("a").value(1).name("list").beginArray().value("x").beginObject().endObject().nullValue()
			.value(true).endArray().name("raw").rawValue("{\"k\":false}".getBytes(StandardCharsets.US_ASCII)).endObject();
		assertThat(new String(json.toByteArray(), StandardCharsets.UTF_8))
			.isEqualTo("{\"a\":1,\"list\":[\"x\",{},null,true],\"raw\":{\"k\":false}}");
	}

	@Test
	void numbersOfEverySizeAreExact() {
		long[] numbers = { 0, 7, -7, 10, 999_999, Long.MAX_VALUE, Long.MIN_VALUE, -1_000_000_000_000L };
		JsonWriter json = new JsonWriter(8).beginArray();
		for (long number : numbers) {
			json.value(number);
		}
		JsonNode read = JSON.readTree(json.endArray().toByteArray());
		for (int i = 0; i < numbers.length; i++) {
			assertThat(read.get(i).longValue()).isEqualTo(numbers[i]);
		}
	}

	@Test
	void stringsAreEscapedAndEncodedAsUtf8() {
		String[] texts = { "plain", "quote \" and back\\slash", "line\nbreak\ttab\u0001", "é ü 日本 😀", "\u2028\u2029",
				"</script>", "unpaired \uD800 surrogate" };
		JsonWriter json = new JsonWriter(8).beginArray();
		for (String text : texts) {
			json.value(text);
		}
		byte[] bytes = json.endArray().toByteArray();
		String raw = new String(bytes, StandardCharsets.UTF_8);
		assertThat(raw).doesNotContain("\n").doesNotContain("\u2028").contains("\\u2028");
		JsonNode read = JSON.readTree(bytes);
		for (int i = 0; i < texts.length - 1; i++) {
			assertThat(read.get(i).stringValue()).isEqualTo(texts[i]);
		}
		assertThat(read.get(texts.length - 1).stringValue()).startsWith("unpaired ").endsWith(" surrogate");
	}

	@Test
	void theEntityTagChangesWithTheContent() {
		String first = new JsonWriter(8).beginArray().value("a").endArray().etag();
		String same = new JsonWriter(8).beginArray().value("a").endArray().etag();
		String other = new JsonWriter(8).beginArray().value("b").endArray().etag();
		assertThat(first).isEqualTo(same).isNotEqualTo(other).startsWith("\"").endsWith("\"");
	}

}
