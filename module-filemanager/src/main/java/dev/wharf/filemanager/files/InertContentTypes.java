package dev.wharf.filemanager.files;

import java.util.Locale;

import dev.wharf.core.web.MediaTypeRegistry;

/**
 * The {@code Content-Type} of a download: core's {@link MediaTypeRegistry} (so a file has
 * the type a static site sends it with), except that types a browser could run as a page
 * or a script (HTML, XHTML, SVG, any XML, JavaScript) are sent as {@code text/plain}, so
 * a file uploaded by one user cannot run script in another user's session; together with
 * {@code nosniff} and the download CSP, nothing a user stores is ever active on Wharf's
 * origin.
 */
final class InertContentTypes {

	private static final String TEXT_PLAIN = "text/plain";

	private InertContentTypes() {
	}

	static String of(String name) {
		String type = MediaTypeRegistry.defaults().forName(name);
		return isActive(type) ? TEXT_PLAIN : type;
	}

	static boolean isActive(String contentType) {
		int slash = contentType.indexOf('/');
		int semicolon = contentType.indexOf(';');
		String subtype = contentType.substring(slash + 1, (semicolon >= 0) ? semicolon : contentType.length())
			.trim()
			.toLowerCase(Locale.ROOT);
		return subtype.equals("html") || subtype.equals("xhtml+xml") || subtype.equals("xml")
				|| subtype.endsWith("+xml") || subtype.contains("javascript") || subtype.contains("ecmascript")
				|| subtype.equals("xsl") || subtype.equals("xslt");
	}

}
