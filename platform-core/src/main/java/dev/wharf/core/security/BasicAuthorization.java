package dev.wharf.core.security;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Reads an {@code Authorization: Basic} header (RFC 7617) strictly, the same way for
 * every protocol that takes one: the scheme in any case, standard Base64, UTF-8 that must
 * be well-formed (malformed bytes are refused, never replaced, so two spellings of a name
 * cannot meet in one account), and a name that is not empty before the first colon.
 * Stateless and thread-safe.
 */
public final class BasicAuthorization {

	private static final String SCHEME = "Basic ";

	private BasicAuthorization() {
	}

	/**
	 * Whether a header uses the Basic scheme, well-formed or not.
	 * @param authorization the {@code Authorization} header
	 * @return whether it starts with {@code Basic }
	 */
	public static boolean isBasic(String authorization) {
		return authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
	}

	/**
	 * The name and password of a Basic header.
	 * @param authorization the {@code Authorization} header
	 * @return the credentials, or empty if the header is not Basic or is malformed
	 */
	public static Optional<Credentials> parse(String authorization) {
		if (!isBasic(authorization)) {
			return Optional.empty();
		}
		try {
			byte[] bytes = Base64.getDecoder().decode(authorization.substring(SCHEME.length()).trim());
			// ASCII is well-formed UTF-8 and needs no decoder: most credentials are, and
			// the build cache reads
			// them on every request.
			String text = isAscii(bytes) ? new String(bytes, StandardCharsets.US_ASCII)
					: StandardCharsets.UTF_8.newDecoder()
						.onMalformedInput(CodingErrorAction.REPORT)
						.onUnmappableCharacter(CodingErrorAction.REPORT)
						.decode(ByteBuffer.wrap(bytes))
						.toString();
			int colon = text.indexOf(':');
			if (colon <= 0) {
				return Optional.empty();
			}
			return Optional.of(new Credentials(text.substring(0, colon), text.substring(colon + 1)));
		}
		catch (IllegalArgumentException | CharacterCodingException ex) {
			return Optional.empty();
		}
	}

	private static boolean isAscii(byte[] bytes) {
		for (byte b : bytes) {
			if (b < 0) {
				return false;
			}
		}
		return true;
	}

}
