package dev.wharf.filemanager.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;

/**
 * Writes compact JSON straight into UTF-8 bytes: no reflection, no intermediate strings, one array that
 * grows as needed. The API's responses are small and their shapes fixed, so this is all it needs and it
 * keeps the hot path (listing a folder) cheap. Commas are placed automatically.
 *
 * <p>Strings are escaped as JSON requires (quote, backslash, control characters), plus U+2028 and U+2029;
 * an unpaired surrogate is written as a {@code \\u} escape, so the output is always valid UTF-8. Not
 * thread-safe: one writer per response.
 */
public final class JsonWriter {

	private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] TRUE = { 't', 'r', 'u', 'e' };

	private static final byte[] FALSE = { 'f', 'a', 'l', 's', 'e' };

	private static final byte[] NULL = { 'n', 'u', 'l', 'l' };

	private byte[] bytes;

	private int length;

	/** One bit per open object or array, from the innermost: set once it has a member (a comma is due). */
	private long hasMembers;

	private int depth;

	/** Whether the next value follows a name (no comma before it). */
	private boolean afterName;

	/**
	 * Creates a writer.
	 * @param capacity the initial size in bytes
	 */
	public JsonWriter(int capacity) {
		this.bytes = new byte[Math.max(16, capacity)];
	}

	/** Opens an object. */
	public JsonWriter beginObject() {
		beforeValue();
		put((byte) '{');
		push();
		return this;
	}

	/** Closes the innermost object. */
	public JsonWriter endObject() {
		pop();
		put((byte) '}');
		return this;
	}

	/** Opens an array. */
	public JsonWriter beginArray() {
		beforeValue();
		put((byte) '[');
		push();
		return this;
	}

	/** Closes the innermost array. */
	public JsonWriter endArray() {
		pop();
		put((byte) ']');
		return this;
	}

	/**
	 * Writes a member's name; the next call writes its value.
	 * @param name the name, plain ASCII without characters that need escaping
	 */
	public JsonWriter name(String name) {
		beforeValue();
		ensure(name.length() + 3);
		this.bytes[this.length++] = '"';
		for (int i = 0; i < name.length(); i++) {
			this.bytes[this.length++] = (byte) name.charAt(i);
		}
		this.bytes[this.length++] = '"';
		this.bytes[this.length++] = ':';
		this.afterName = true;
		return this;
	}

	/**
	 * Writes a string value, escaped.
	 * @param value the text
	 */
	public JsonWriter value(String value) {
		beforeValue();
		writeString(value);
		return this;
	}

	/**
	 * Writes a number.
	 * @param value the number
	 */
	public JsonWriter value(long value) {
		beforeValue();
		if (value == Long.MIN_VALUE) {
			raw(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
			return this;
		}
		ensure(20);
		if (value < 0) {
			this.bytes[this.length++] = '-';
			value = -value;
		}
		int digits = 1;
		for (long rest = value / 10; rest > 0; rest /= 10) {
			digits++;
		}
		int end = this.length + digits;
		for (int i = end - 1; i >= this.length; i--) {
			this.bytes[i] = (byte) ('0' + (value % 10));
			value /= 10;
		}
		this.length = end;
		return this;
	}

	/**
	 * Writes a boolean.
	 * @param value the value
	 */
	public JsonWriter value(boolean value) {
		beforeValue();
		raw(value ? TRUE : FALSE);
		return this;
	}

	/** Writes {@code null}. */
	public JsonWriter nullValue() {
		beforeValue();
		raw(NULL);
		return this;
	}

	/**
	 * Writes bytes that are already valid JSON for one value, such as a precomputed object.
	 * @param json the value's bytes
	 */
	public JsonWriter rawValue(byte[] json) {
		beforeValue();
		raw(json);
		return this;
	}

	/** How many bytes have been written. */
	public int length() {
		return this.length;
	}

	/** A copy of the bytes written. */
	public byte[] toByteArray() {
		return Arrays.copyOf(this.bytes, this.length);
	}

	/**
	 * The bytes written, as a buffer that shares this writer's array (no copy); the writer must not be used
	 * afterwards.
	 * @param factory the response's buffer factory
	 * @return the buffer
	 */
	public DataBuffer toBuffer(DataBufferFactory factory) {
		return factory.wrap(java.nio.ByteBuffer.wrap(this.bytes, 0, this.length));
	}

	/**
	 * A strong entity tag for the bytes written: their CRC-32C and length, quoted.
	 * @return such as {@code "1a2b3c4d-2f"}
	 */
	public String etag() {
		CRC32C crc = new CRC32C();
		crc.update(this.bytes, 0, this.length);
		return '"' + Long.toHexString(crc.getValue()) + '-' + Integer.toHexString(this.length) + '"';
	}

	private void beforeValue() {
		if (this.afterName) {
			this.afterName = false;
			return;
		}
		if (this.depth > 0) {
			long bit = 1L << (this.depth - 1);
			if ((this.hasMembers & bit) != 0) {
				put((byte) ',');
			}
			else {
				this.hasMembers |= bit;
			}
		}
	}

	private void push() {
		if (this.depth == 64) {
			throw new IllegalStateException("JSON nested too deeply");
		}
		this.depth++;
		this.hasMembers &= ~(1L << (this.depth - 1));
	}

	private void pop() {
		if (this.depth == 0) {
			throw new IllegalStateException("Nothing to close");
		}
		this.depth--;
	}

	private void writeString(String value) {
		ensure(value.length() + 2);
		this.bytes[this.length++] = '"';
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
				if (this.length == this.bytes.length) {
					ensure(1);
				}
				this.bytes[this.length++] = (byte) c;
			}
			else if (c == '"' || c == '\\') {
				ensure(2);
				this.bytes[this.length++] = '\\';
				this.bytes[this.length++] = (byte) c;
			}
			else if (c < 0x20 || c == '\u2028' || c == '\u2029') {
				escape(c);
			}
			else if (c < 0x800) {
				ensure(2);
				this.bytes[this.length++] = (byte) (0xC0 | (c >> 6));
				this.bytes[this.length++] = (byte) (0x80 | (c & 0x3F));
			}
			else if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
				int codePoint = Character.toCodePoint(c, value.charAt(++i));
				ensure(4);
				this.bytes[this.length++] = (byte) (0xF0 | (codePoint >> 18));
				this.bytes[this.length++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
				this.bytes[this.length++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
				this.bytes[this.length++] = (byte) (0x80 | (codePoint & 0x3F));
			}
			else if (Character.isSurrogate(c)) {
				escape(c);
			}
			else {
				ensure(3);
				this.bytes[this.length++] = (byte) (0xE0 | (c >> 12));
				this.bytes[this.length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
				this.bytes[this.length++] = (byte) (0x80 | (c & 0x3F));
			}
		}
		put((byte) '"');
	}

	private void escape(char c) {
		ensure(6);
		this.bytes[this.length++] = '\\';
		this.bytes[this.length++] = 'u';
		this.bytes[this.length++] = HEX[(c >> 12) & 0xF];
		this.bytes[this.length++] = HEX[(c >> 8) & 0xF];
		this.bytes[this.length++] = HEX[(c >> 4) & 0xF];
		this.bytes[this.length++] = HEX[c & 0xF];
	}

	private void raw(byte[] json) {
		ensure(json.length);
		System.arraycopy(json, 0, this.bytes, this.length, json.length);
		this.length += json.length;
	}

	private void put(byte b) {
		ensure(1);
		this.bytes[this.length++] = b;
	}

	private void ensure(int more) {
		if (this.length + more > this.bytes.length) {
			this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.length + more));
		}
	}

}
