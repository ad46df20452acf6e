package dev.wharf.core.storage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Strict percent-decoding for paths taken from URIs: malformed escapes, encoded
 * separators, NUL (encoded or literal), unpaired surrogates and malformed UTF-8 are
 * rejected rather than replaced, unlike {@link java.net.URLDecoder}.
 */
public final class PercentDecoding {

	private PercentDecoding() {
	}

	/**
	 * Decodes the raw path part of a URI. {@code %2F}, {@code %5C} and {@code %00} are
	 * refused because they would hide a separator or NUL from the layer that split the
	 * path.
	 * @param raw the raw, still encoded path
	 * @return the decoded text
	 * @throws InvalidStoragePathException if the input is malformed or hides a separator
	 */
	public static String decodePath(String raw) {
		return decode(raw, false, true);
	}

	/**
	 * Decodes one value of a query string ({@code application/x-www-form-urlencoded}:
	 * {@code +} is a space). A {@code %2F} is an ordinary {@code /} here, since a query
	 * value is not split by the URI parser.
	 * @param raw the raw, still encoded value
	 * @return the decoded text
	 * @throws InvalidStoragePathException if the input is malformed
	 */
	public static String decodeQueryValue(String raw) {
		return decode(raw, true, false);
	}

	private static String decode(String raw, boolean plusIsSpace, boolean refuseEncodedSeparators) {
		if (!needsDecoding(raw, plusIsSpace)) {
			return raw;
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
		for (int i = 0; i < raw.length(); i++) {
			char c = raw.charAt(i);
			if (c == '%') {
				if (i + 2 >= raw.length()) {
					throw new InvalidStoragePathException(raw, "malformed percent-encoding");
				}
				int hi = Character.digit(raw.charAt(i + 1), 16);
				int lo = Character.digit(raw.charAt(i + 2), 16);
				if (hi < 0 || lo < 0) {
					throw new InvalidStoragePathException(raw, "malformed percent-encoding");
				}
				int b = (hi << 4) | lo;
				if (b == 0) {
					throw new InvalidStoragePathException(raw, "encoded NUL is not allowed");
				}
				if (refuseEncodedSeparators && (b == '/' || b == '\\')) {
					throw new InvalidStoragePathException(raw, "encoded separators are not allowed");
				}
				bytes.write(b);
				i += 2;
			}
			else if (c == 0) {
				// Refused like %00: a NUL must not reach a caller whichever way it was
				// sent.
				throw new InvalidStoragePathException(raw, "NUL is not allowed");
			}
			else if (c == '+' && plusIsSpace) {
				bytes.write(' ');
			}
			else if (c < 0x80) {
				bytes.write(c);
			}
			else if (Character.isHighSurrogate(c) && i + 1 < raw.length()
					&& Character.isLowSurrogate(raw.charAt(i + 1))) {
				bytes.writeBytes(raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8));
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new InvalidStoragePathException(raw, "invalid Unicode (unpaired surrogate)");
			}
			else {
				bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
			}
		}
		return StoragePath.decodeUtf8Strictly(bytes.toByteArray());
	}

	/**
	 * Whether the input must go through the decoding loop: it has escapes, or characters
	 * the loop refuses (NUL, unpaired surrogates). Plain text is returned as it is,
	 * without copying.
	 */
	private static boolean needsDecoding(String raw, boolean plusIsSpace) {
		for (int i = 0; i < raw.length(); i++) {
			char c = raw.charAt(i);
			if (c == '%' || c == 0 || (c == '+' && plusIsSpace) || Character.isSurrogate(c)) {
				return true;
			}
		}
		return false;
	}

}
