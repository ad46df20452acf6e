package dev.wharf.filemanager.http;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JsonBody}: its output is read back by Jackson's parser, and its bytes
 * are the ones the API has always sent (the entity tags clients hold depend on them).
 */
class JsonBodyTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void writesNestedStructuresWithRawValues() {
		JsonBody json = JsonBody.write(4,
				out -> out.writeStartObject()
					.writeNumberProperty("a", 1)
					.writeArrayPropertyStart("list")
					.writeString("x")
					.writeStartObject()
					.writeEndObject()
					.writeNull()
					.writeBoolean(true)
					.writeEndArray()
					.writeName("raw")
					.writeRawValue(JsonBody.raw(8,
							raw -> raw.writeStartObject().writeBooleanProperty("k", false).writeEndObject()))
					.writeEndObject());
		assertThat(new String(json.toByteArray(), StandardCharsets.UTF_8))
			.isEqualTo("{\"a\":1,\"list\":[\"x\",{},null,true],\"raw\":{\"k\":false}}");
		assertThat(json.length()).isEqualTo(json.toByteArray().length);
	}

	@Test
	void numbersOfEverySizeAreExact() {
		long[] numbers = { 0, 7, -7, 10, 999_999, Long.MAX_VALUE, Long.MIN_VALUE, -1_000_000_000_000L };
		JsonBody json = JsonBody.write(8, out -> {
			out.writeStartArray();
			for (long number : numbers) {
				out.writeNumber(number);
			}
			out.writeEndArray();
		});
		assertThat(new String(json.toByteArray(), StandardCharsets.US_ASCII))
			.isEqualTo("[0,7,-7,10,999999,9223372036854775807,-9223372036854775808,-1000000000000]");
		JsonNode read = JSON.readTree(json.toByteArray());
		for (int i = 0; i < numbers.length; i++) {
			assertThat(read.get(i).longValue()).isEqualTo(numbers[i]);
		}
	}

	@Test
	void stringsAreEscapedAndEncodedAsUtf8AsTheApiAlwaysDid() {
		String[] texts = { "plain", "quote \" and back\\slash", "line\nbreak\ttab\u0001\b\f\r\u001f\u007f/",
				"é ü 日本 😀", "\u2028\u2029", "</script>", "unpaired \uD800 surrogate",
				"low \uDC00 then high at end \uD83D" };
		JsonBody json = JsonBody.write(8, out -> {
			out.writeStartArray();
			for (String text : texts) {
				out.writeString(text);
			}
			out.writeEndArray();
		});
		byte[] bytes = json.toByteArray();
		// Control characters as six-character escapes in lower case (not \n, \t), U+2028
		// and U+2029 escaped, DEL and '/' raw,
		// unpaired surrogates escaped: byte for byte what the API sent before it wrote
		// with Jackson.
		assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("[\"plain\",\"quote \\\" and back\\\\slash\","
				+ "\"line\\u000abreak\\u0009tab\\u0001\\u0008\\u000c\\u000d\\u001f\u007f/\",\"é ü 日本 😀\","
				+ "\"\\u2028\\u2029\",\"</script>\",\"unpaired \\ud800 surrogate\",\"low \\udc00 then high at end \\ud83d\"]");
		assertThat(json.etag()).isEqualTo("\"c69f1ce0-cf\"");
		JsonNode read = JSON.readTree(bytes);
		for (int i = 0; i < 6; i++) {
			assertThat(read.get(i).stringValue()).isEqualTo(texts[i]);
		}
		assertThat(read.get(6).stringValue()).startsWith("unpaired ").endsWith(" surrogate");
	}

	@Test
	void theEntityTagChangesWithTheContent() {
		String first = JsonBody.write(8, out -> out.writeStartArray().writeString("a").writeEndArray()).etag();
		String same = JsonBody.write(8, out -> out.writeStartArray().writeString("a").writeEndArray()).etag();
		String other = JsonBody.write(8, out -> out.writeStartArray().writeString("b").writeEndArray()).etag();
		assertThat(first).isEqualTo(same).isNotEqualTo(other).startsWith("\"").endsWith("\"");
	}

}
