package dev.wharf.filemanager.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * A JSON response body, written with Jackson's streaming {@link JsonGenerator} into
 * memory: compact UTF-8, no reflection, with its length and entity tag for the response.
 *
 * <p>
 * Strings are escaped as JSON requires (quote, backslash, control characters), plus
 * U+2028 and U+2029, which JavaScript before ES2019 does not accept raw in a string;
 * control characters are always written <code>&#92;u00XX</code> (never {@code \n}), hex
 * digits in lower case, and an unpaired surrogate as a <code>&#92;u</code> escape, so the
 * output is valid UTF-8. These are the bytes the API has always sent, so a listing's
 * entity tag (a checksum of them) stays what clients have cached.
 *
 * <p>
 * Immutable once written; safe to share. The writing itself happens in one thread, in
 * {@link #write(int, Consumer)}.
 */
public final class JsonBody {

	private static final JsonFactory FACTORY = JsonFactory.builder()
		.disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
		.characterEscapes(new Escapes())
		.build();

	private final byte[] bytes;

	private final int length;

	private JsonBody(byte[] bytes, int length) {
		this.bytes = bytes;
		this.length = length;
	}

	/**
	 * Writes a body.
	 * @param capacity the expected size in bytes (the buffer grows past it as needed)
	 * @param content writes exactly one JSON value to the generator it is given; the
	 * generator is closed afterwards
	 * @return the body
	 */
	public static JsonBody write(int capacity, Consumer<JsonGenerator> content) {
		Output out = new Output(capacity);
		try (JsonGenerator json = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
			content.accept(json);
		}
		return new JsonBody(out.array(), out.size());
	}

	/**
	 * Bytes that are already valid JSON for one value, kept to be written with
	 * {@link JsonGenerator#writeRawValue(SerializableString)}, such as a precomputed
	 * object.
	 * @param capacity the expected size in bytes
	 * @param content writes the value
	 * @return the value, ready to be written raw
	 */
	public static SerializableString raw(int capacity, Consumer<JsonGenerator> content) {
		return new SerializedString(write(capacity, content).text());
	}

	/** How many bytes there are. */
	public int length() {
		return this.length;
	}

	/** A copy of the bytes. */
	public byte[] toByteArray() {
		return Arrays.copyOf(this.bytes, this.length);
	}

	/**
	 * The bytes, as a buffer that shares this body's array (no copy).
	 * @param factory the response's buffer factory
	 * @return the buffer
	 */
	public DataBuffer toBuffer(DataBufferFactory factory) {
		return factory.wrap(ByteBuffer.wrap(this.bytes, 0, this.length));
	}

	/**
	 * A strong entity tag for the bytes: their CRC-32C and length, quoted.
	 * @return such as {@code "1a2b3c4d-2f"}
	 */
	public String etag() {
		CRC32C crc = new CRC32C();
		crc.update(this.bytes, 0, this.length);
		return '"' + Long.toHexString(crc.getValue()) + '-' + Integer.toHexString(this.length) + '"';
	}

	private String text() {
		return new String(this.bytes, 0, this.length, StandardCharsets.UTF_8);
	}

	/** A byte array output whose array is handed over without a copy. */
	private static final class Output extends ByteArrayOutputStream {

		Output(int capacity) {
			super(Math.max(16, capacity));
		}

		byte[] array() {
			return this.buf;
		}

	}

	/**
	 * JSON's escapes with every control character as <code>&#92;u00XX</code>, plus U+2028
	 * and U+2029. Jackson asks for the sequence of a character outside ASCII only once a
	 * string has one, so plain ASCII strings take its fast path.
	 */
	private static final class Escapes extends CharacterEscapes {

		private static final int[] ASCII = asciiEscapes();

		private static final SerializableString LINE_SEPARATOR = new SerializedString("\\u2028");

		private static final SerializableString PARAGRAPH_SEPARATOR = new SerializedString("\\u2029");

		@Override
		public int[] getEscapeCodesForAscii() {
			return ASCII;
		}

		@Override
		public @Nullable SerializableString getEscapeSequence(int ch) {
			return switch (ch) {
				case 0x2028 -> LINE_SEPARATOR;
				case 0x2029 -> PARAGRAPH_SEPARATOR;
				default -> null;
			};
		}

		private static int[] asciiEscapes() {
			int[] escapes = CharacterEscapes.standardAsciiEscapesForJSON();
			for (int c = 0; c < 0x20; c++) {
				escapes[c] = CharacterEscapes.ESCAPE_STANDARD;
			}
			return escapes;
		}

	}

}
