package dev.wharf.staticfiles.site;

/**
 * Checks configured header names and values, so a typo fails at start-up instead of on
 * every response.
 */
final class HeaderValues {

	private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

	private HeaderValues() {
	}

	/**
	 * Whether a value has only visible ASCII, spaces and tabs (RFC 9110 field-value,
	 * ASCII only).
	 */
	static boolean isValid(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < 0x20 && c != '\t') || c >= 0x7f) {
				return false;
			}
		}
		return true;
	}

	/** Whether a name is an RFC 9110 token. */
	static boolean isToken(String name) {
		if (name.isEmpty()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| TOKEN_SYMBOLS.indexOf(c) >= 0;
			if (!ok) {
				return false;
			}
		}
		return true;
	}

}
