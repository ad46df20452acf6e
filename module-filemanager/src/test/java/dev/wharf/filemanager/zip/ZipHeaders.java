package dev.wharf.filemanager.zip;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads a zip's headers byte by byte as APPNOTE describes them, without any zip library,
 * so tests check what is actually written (the library that writes a zip would read back
 * its own mistakes). Small archives only: no ZIP64 end record, no archive comment.
 */
final class ZipHeaders {

	private static final long END_SIGNATURE = 0x06054b50;

	private static final long CENTRAL_SIGNATURE = 0x02014b50;

	private static final long LOCAL_SIGNATURE = 0x04034b50;

	private ZipHeaders() {
	}

	/**
	 * One central or local file header.
	 *
	 * @param madeBy "version made by" (the host in its high byte); 0 in a local header,
	 * which has none
	 * @param flags the general purpose bit flags
	 * @param externalAttributes the external file attributes; 0 in a local header
	 * @param localHeaderOffset where the entry's local header starts; 0 in a local header
	 * @param name the name, read as UTF-8
	 * @param extras the extra fields by header id
	 */
	record Header(int madeBy, int flags, long externalAttributes, long localHeaderOffset, String name,
			Map<Integer, byte[]> extras) {

		byte @Nullable [] extra(int id) {
			return this.extras.get(id);
		}

	}

	/** Every central directory header, in order. */
	static List<Header> centralDirectory(byte[] zip) {
		int end = zip.length - 22;
		assertThat(u32(zip, end)).as("end of central directory record (no comment)").isEqualTo(END_SIGNATURE);
		int count = u16(zip, end + 10);
		int offset = (int) u32(zip, end + 16);
		List<Header> headers = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			assertThat(u32(zip, offset)).as("central header signature").isEqualTo(CENTRAL_SIGNATURE);
			int nameLength = u16(zip, offset + 28);
			int extraLength = u16(zip, offset + 30);
			int commentLength = u16(zip, offset + 32);
			headers.add(new Header(u16(zip, offset + 4), u16(zip, offset + 8), u32(zip, offset + 38),
					u32(zip, offset + 42), new String(zip, offset + 46, nameLength, StandardCharsets.UTF_8),
					extras(zip, offset + 46 + nameLength, extraLength)));
			offset += 46 + nameLength + extraLength + commentLength;
		}
		return headers;
	}

	/** The local file header at an offset. */
	static Header localHeader(byte[] zip, long at) {
		int offset = (int) at;
		assertThat(u32(zip, offset)).as("local header signature").isEqualTo(LOCAL_SIGNATURE);
		int nameLength = u16(zip, offset + 26);
		int extraLength = u16(zip, offset + 28);
		return new Header(0, u16(zip, offset + 6), 0, 0,
				new String(zip, offset + 30, nameLength, StandardCharsets.UTF_8),
				extras(zip, offset + 30 + nameLength, extraLength));
	}

	private static Map<Integer, byte[]> extras(byte[] zip, int offset, int length) {
		Map<Integer, byte[]> extras = new LinkedHashMap<>();
		int at = offset;
		while (at + 4 <= offset + length) {
			int id = u16(zip, at);
			int size = u16(zip, at + 2);
			byte[] data = new byte[size];
			System.arraycopy(zip, at + 4, data, 0, size);
			extras.put(id, data);
			at += 4 + size;
		}
		assertThat(at).as("extra fields fill their space exactly").isEqualTo(offset + length);
		return extras;
	}

	static int u16(byte[] bytes, int at) {
		return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8;
	}

	static long u32(byte[] bytes, int at) {
		return (u16(bytes, at) | (long) u16(bytes, at + 2) << 16);
	}

}
