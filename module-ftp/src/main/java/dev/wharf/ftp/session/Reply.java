package dev.wharf.ftp.session;

import java.util.List;

/**
 * One reply to the client: a code and its lines (one for a single-line reply, several for
 * {@code 211-...} ... {@code 211 End}), and whether the server closes the control
 * connection once it is sent. The text never carries a line break or another control
 * character (they are replaced), so a name cannot forge a reply line. Immutable.
 *
 * @param code the reply code
 * @param lines the lines, the last one closing the reply; at least one
 * @param closing whether the connection closes after the reply
 */
public record Reply(int code, List<String> lines, boolean closing) {

	public Reply {
		lines = lines.stream().map(Reply::clean).toList();
		if (lines.isEmpty()) {
			throw new IllegalArgumentException("A reply needs a line");
		}
	}

	/**
	 * A one-line reply.
	 * @param code the reply code
	 * @param text the text; control characters are replaced
	 * @return the reply
	 */
	public static Reply of(int code, String text) {
		return new Reply(code, List.of(text), false);
	}

	/**
	 * A one-line reply after which the server closes the control connection.
	 * @param code the reply code
	 * @param text the text; control characters are replaced
	 * @return the reply
	 */
	public static Reply closing(int code, String text) {
		return new Reply(code, List.of(text), true);
	}

	/**
	 * A reply of several lines ({@code 211-...}, ..., {@code 211 End}).
	 * @param code the reply code
	 * @param lines the lines, the last one closing the reply; control characters are
	 * replaced in each
	 * @return the reply
	 */
	public static Reply lines(int code, List<String> lines) {
		return new Reply(code, lines, false);
	}

	static String clean(String text) {
		StringBuilder cleaned = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
				if (cleaned == null) {
					cleaned = new StringBuilder(text.substring(0, i));
				}
				cleaned.append('?');
			}
			else if (cleaned != null) {
				cleaned.append(c);
			}
		}
		return (cleaned != null) ? cleaned.toString() : text;
	}

}
