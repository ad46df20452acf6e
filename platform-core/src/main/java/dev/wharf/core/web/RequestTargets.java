package dev.wharf.core.web;

/**
 * The raw (still percent-encoded) path of a request target (RFC 9112, section 3.2): the
 * origin form {@code /a/b?q} or the absolute form {@code http://host/a/b?q}.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class RequestTargets {

	private RequestTargets() {
	}

	/**
	 * The path of a request target, without query or fragment; never decoded.
	 * @param target the request target, as received
	 * @return the raw path, starting with {@code /}; empty for a target that has none
	 * (such as {@code *})
	 */
	public static String path(String target) {
		int start = 0;
		if (!target.startsWith("/")) {
			int scheme = target.indexOf("://");
			if (scheme < 0) {
				return "";
			}
			start = scheme + 3;
			while (start < target.length() && "/?#".indexOf(target.charAt(start)) < 0) {
				start++;
			}
			if (start == target.length() || target.charAt(start) != '/') {
				return "/";
			}
		}
		int end = target.length();
		for (int i = start; i < end; i++) {
			char c = target.charAt(i);
			if (c == '?' || c == '#') {
				end = i;
				break;
			}
		}
		return (start == 0 && end == target.length()) ? target : target.substring(start, end);
	}

	/**
	 * The query of a request target, with its {@code ?}.
	 * @param target the request target
	 * @return such as {@code ?a=1}, or empty
	 */
	public static String query(String target) {
		int question = target.indexOf('?');
		if (question < 0) {
			return "";
		}
		int hash = target.indexOf('#', question);
		return (hash < 0) ? target.substring(question) : target.substring(question, hash);
	}

}
