package dev.wharf.staticfiles.site;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * Content types by file extension: a built-in table of the common web types, plus a site's own entries.
 * Text types carry {@code charset=utf-8}. Unknown extensions are {@code application/octet-stream}, which
 * browsers download rather than render.
 *
 * <p>Immutable; safe for concurrent use.
 */
public final class ContentTypes {

	/** The type of files whose extension is unknown. */
	public static final String UNKNOWN = "application/octet-stream";

	private static final Pattern EXTENSION = Pattern.compile("[a-z0-9][a-z0-9_+-]{0,31}");

	private static final Map<String, String> BUILT_IN = builtIn();

	private final Map<String, String> byExtension;

	/**
	 * Creates the table.
	 * @param overrides extension (without the dot) to type; replaces the built-in entry
	 * @param property the property the overrides come from, for errors
	 * @throws InvalidConfigurationException if an extension or a type is malformed
	 */
	public ContentTypes(Map<String, String> overrides, String property) {
		Map<String, String> table = new HashMap<>(BUILT_IN);
		overrides.forEach((extension, type) -> {
			String key = extension.toLowerCase(Locale.ROOT);
			if (!EXTENSION.matcher(key).matches()) {
				throw new InvalidConfigurationException(property, extension,
						"an extension is 1 to 32 letters, digits, '_', '+' or '-', without the dot");
			}
			try {
				MediaType.parseMediaType(type);
			}
			catch (InvalidMediaTypeException ex) {
				throw new InvalidConfigurationException(property + "." + key, type, "not a valid content type");
			}
			table.put(key, type);
		});
		this.byExtension = Map.copyOf(table);
	}

	/**
	 * The type of a file.
	 * @param name the file's name
	 * @return its content type
	 */
	public String forName(String name) {
		int dot = name.lastIndexOf('.');
		if (dot < 0 || dot == name.length() - 1) {
			return UNKNOWN;
		}
		String type = this.byExtension.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
		return (type != null) ? type : UNKNOWN;
	}

	/**
	 * Whether a type is worth compressing: text and structured text, SVG, WebAssembly and uncompressed
	 * font formats; not images, audio, video, archives or WOFF fonts, which are compressed already.
	 * @param contentType a content type, with or without parameters
	 * @return whether gzip or brotli would shrink it
	 */
	public static boolean isCompressible(String contentType) {
		String type = contentType;
		int semicolon = type.indexOf(';');
		if (semicolon >= 0) {
			type = type.substring(0, semicolon);
		}
		type = type.trim().toLowerCase(Locale.ROOT);
		return type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml")
				|| switch (type) {
					case "application/javascript", "application/json", "application/xml", "application/wasm",
							"application/manifest+json", "application/x-javascript", "font/ttf", "font/otf",
							"application/vnd.ms-fontobject", "image/x-icon", "image/bmp" -> true;
					default -> false;
				};
	}

	private static Map<String, String> builtIn() {
		Map<String, String> types = new HashMap<>();
		String utf8 = "; charset=utf-8";
		types.put("html", "text/html" + utf8);
		types.put("htm", "text/html" + utf8);
		types.put("css", "text/css" + utf8);
		types.put("js", "text/javascript" + utf8);
		types.put("mjs", "text/javascript" + utf8);
		types.put("txt", "text/plain" + utf8);
		types.put("text", "text/plain" + utf8);
		types.put("md", "text/markdown" + utf8);
		types.put("csv", "text/csv" + utf8);
		types.put("xml", "text/xml" + utf8);
		types.put("ics", "text/calendar" + utf8);
		types.put("vtt", "text/vtt" + utf8);
		types.put("json", "application/json");
		types.put("map", "application/json");
		types.put("jsonld", "application/ld+json");
		types.put("webmanifest", "application/manifest+json");
		types.put("rss", "application/rss+xml");
		types.put("atom", "application/atom+xml");
		types.put("wasm", "application/wasm");
		types.put("pdf", "application/pdf");
		types.put("zip", "application/zip");
		types.put("gz", "application/gzip");
		types.put("tgz", "application/gzip");
		types.put("br", "application/x-brotli");
		types.put("zst", "application/zstd");
		types.put("bz2", "application/x-bzip2");
		types.put("xz", "application/x-xz");
		types.put("7z", "application/x-7z-compressed");
		types.put("tar", "application/x-tar");
		types.put("jar", "application/java-archive");
		types.put("apk", "application/vnd.android.package-archive");
		types.put("deb", "application/vnd.debian.binary-package");
		types.put("rpm", "application/x-rpm");
		types.put("iso", "application/x-iso9660-image");
		types.put("bin", "application/octet-stream");
		types.put("exe", "application/octet-stream");
		types.put("dmg", "application/octet-stream");
		types.put("png", "image/png");
		types.put("jpg", "image/jpeg");
		types.put("jpeg", "image/jpeg");
		types.put("gif", "image/gif");
		types.put("webp", "image/webp");
		types.put("avif", "image/avif");
		types.put("svg", "image/svg+xml");
		types.put("ico", "image/x-icon");
		types.put("bmp", "image/bmp");
		types.put("tif", "image/tiff");
		types.put("tiff", "image/tiff");
		types.put("woff", "font/woff");
		types.put("woff2", "font/woff2");
		types.put("ttf", "font/ttf");
		types.put("otf", "font/otf");
		types.put("eot", "application/vnd.ms-fontobject");
		types.put("mp4", "video/mp4");
		types.put("m4v", "video/mp4");
		types.put("webm", "video/webm");
		types.put("ogv", "video/ogg");
		types.put("mov", "video/quicktime");
		types.put("mp3", "audio/mpeg");
		types.put("m4a", "audio/mp4");
		types.put("ogg", "audio/ogg");
		types.put("oga", "audio/ogg");
		types.put("opus", "audio/ogg");
		types.put("wav", "audio/wav");
		types.put("flac", "audio/flac");
		types.put("doc", "application/msword");
		types.put("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
		types.put("xls", "application/vnd.ms-excel");
		types.put("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
		types.put("ppt", "application/vnd.ms-powerpoint");
		types.put("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation");
		types.put("odt", "application/vnd.oasis.opendocument.text");
		types.put("ods", "application/vnd.oasis.opendocument.spreadsheet");
		types.put("epub", "application/epub+zip");
		return types;
	}

}
