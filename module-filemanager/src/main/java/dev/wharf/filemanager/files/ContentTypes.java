package dev.wharf.filemanager.files;

import java.util.Locale;

import org.springframework.http.MediaType;
import org.springframework.http.MediaTypeFactory;

/**
 * The {@code Content-Type} of a download, from the file name. Types a browser could run as a page or a
 * script (HTML, XHTML, SVG, any XML, JavaScript) are sent as {@code text/plain}, so a file uploaded by one
 * user cannot run script in another user's session; together with {@code nosniff} and the download CSP,
 * nothing a user stores is ever active on Wharf's origin.
 */
final class ContentTypes {

	private ContentTypes() {
	}

	static MediaType of(String name) {
		MediaType type = MediaTypeFactory.getMediaType(name).orElse(MediaType.APPLICATION_OCTET_STREAM);
		return isActive(type) ? MediaType.TEXT_PLAIN : type;
	}

	static boolean isActive(MediaType type) {
		String subtype = type.getSubtype().toLowerCase(Locale.ROOT);
		return subtype.equals("html") || subtype.equals("xhtml+xml") || subtype.equals("xml") || subtype.endsWith("+xml")
				|| subtype.contains("javascript") || subtype.contains("ecmascript") || subtype.equals("xsl")
				|| subtype.equals("xslt");
	}

}
