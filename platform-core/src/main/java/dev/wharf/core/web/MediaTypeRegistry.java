package dev.wharf.core.web;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.MediaTypeFactory;

/**
 * Wharf's one table of content types by file name, for everything that sends or packs
 * files: static sites (the {@code Content-Type}, and whether to compress), the file
 * manager's downloads (before its own rule that sends active types as {@code text/plain})
 * and its zips (stored or deflated). So a file has one type whichever module sends it.
 *
 * <p>
 * A name's extension (after the last dot, in any case) is looked up in the overrides this
 * registry was made with (a static site's {@code content-types}), then in Wharf's few
 * additions and corrections, then in the {@code mime.types} that Spring ships
 * ({@link MediaTypeFactory}); a name without a known extension is {@value #UNKNOWN},
 * which browsers download rather than render. Text types carry {@code charset=utf-8}
 * unless an override says otherwise. Modules apply their own rules on top: the file
 * manager sends types a browser could run as {@code text/plain}.
 *
 * <p>
 * Immutable; safe for concurrent use.
 */
public final class MediaTypeRegistry {

	/** The type of files whose extension is unknown. */
	public static final String UNKNOWN = "application/octet-stream";

	/** The parameter every text type carries unless an override says otherwise. */
	private static final String UTF_8 = "; charset=utf-8";

	private static final Pattern EXTENSION = Pattern.compile("[a-z0-9][a-z0-9_+-]{0,31}");

	private static final Map<String, String> BUILT_IN = builtIn();

	/**
	 * Types whose content is compressed already (images, audio and video codecs,
	 * archives, office documents, PDF): compressing them again costs CPU and gains
	 * nothing, so a zip stores them as they are.
	 */
	private static final Set<String> ALREADY_COMPRESSED = Set.of("image/jpeg", "image/png", "image/gif", "image/webp",
			"image/heic", "image/avif", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/flac", "audio/x-flac",
			"video/mp4", "video/x-m4v", "video/x-matroska", "video/quicktime", "video/x-msvideo", "video/webm",
			"video/ogg", "application/zip", "application/gzip", "application/x-bzip2", "application/x-xz",
			"application/zstd", "application/x-brotli", "application/x-7z-compressed", "application/x-rar-compressed",
			"application/vnd.rar", "application/java-archive", "application/vnd.android.package-archive",
			"application/vnd.debian.binary-package", "application/x-rpm", "application/epub+zip", "application/pdf",
			"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
			"application/vnd.openxmlformats-officedocument.presentationml.presentation",
			"application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
			"application/vnd.oasis.opendocument.presentation");

	private static final MediaTypeRegistry DEFAULTS = new MediaTypeRegistry(BUILT_IN);

	private final Map<String, String> byExtension;

	private MediaTypeRegistry(Map<String, String> byExtension) {
		this.byExtension = Map.copyOf(byExtension);
	}

	/**
	 * The registry without overrides, as the file manager and zips use it.
	 * @return the shared instance
	 */
	public static MediaTypeRegistry defaults() {
		return DEFAULTS;
	}

	/**
	 * A registry with overrides.
	 * @param overrides extension (without the dot) to type; replaces the built-in entry
	 * @param property the property the overrides come from, for errors
	 * @return the registry
	 * @throws InvalidConfigurationException if an extension or a type is malformed
	 */
	public static MediaTypeRegistry withOverrides(Map<String, String> overrides, String property) {
		if (overrides.isEmpty()) {
			return DEFAULTS;
		}
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
		return new MediaTypeRegistry(table);
	}

	/**
	 * The type of a file.
	 * @param name the file's name
	 * @return its content type, as the {@code Content-Type} header's value
	 */
	public String forName(String name) {
		int dot = name.lastIndexOf('.');
		if (dot < 0 || dot == name.length() - 1) {
			return UNKNOWN;
		}
		String extension = name.substring(dot + 1).toLowerCase(Locale.ROOT);
		String type = this.byExtension.get(extension);
		if (type != null) {
			return type;
		}
		MediaType known = MediaTypeFactory.getMediaType(name).orElse(null);
		if (known == null) {
			return UNKNOWN;
		}
		if (known.getType().equals("text") && known.getCharset() == null) {
			return known + UTF_8;
		}
		return known.toString();
	}

	/**
	 * Whether a type is worth compressing for a client: text and structured text, SVG,
	 * WebAssembly and uncompressed font formats; not images, audio, video, archives or
	 * WOFF fonts, which are compressed already, nor unknown binary content.
	 * @param contentType a content type, with or without parameters
	 * @return whether gzip or brotli would shrink it
	 */
	public static boolean isCompressible(String contentType) {
		String type = essence(contentType);
		return type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml") || switch (type) {
			case "application/javascript", "application/json", "application/xml", "application/wasm",
					"application/manifest+json", "application/x-javascript", "font/ttf", "font/otf",
					"application/vnd.ms-fontobject", "image/x-icon", "image/bmp" ->
				true;
			default -> false;
		};
	}

	/**
	 * Whether a type's content is compressed already, so compressing it again is wasted
	 * work.
	 * @param contentType a content type, with or without parameters
	 * @return whether it is one of the compressed image, audio, video, archive or
	 * document formats
	 */
	public static boolean isAlreadyCompressed(String contentType) {
		return ALREADY_COMPRESSED.contains(essence(contentType));
	}

	/** The type and subtype, in lower case, without parameters. */
	private static String essence(String contentType) {
		int semicolon = contentType.indexOf(';');
		String type = (semicolon >= 0) ? contentType.substring(0, semicolon) : contentType;
		return type.trim().toLowerCase(Locale.ROOT);
	}

	/**
	 * What Wharf's types add to Spring's or say differently (each agreed with what static
	 * sites always sent).
	 */
	private static Map<String, String> builtIn() {
		Map<String, String> types = new HashMap<>();
		// Missing from Spring's mime.types.
		types.put("md", "text/markdown" + UTF_8);
		types.put("vtt", "text/vtt" + UTF_8);
		types.put("map", "application/json");
		types.put("jsonld", "application/ld+json");
		types.put("webmanifest", "application/manifest+json");
		types.put("gz", "application/gzip");
		types.put("tgz", "application/gzip");
		types.put("br", "application/x-brotli");
		types.put("zst", "application/zstd");
		types.put("rpm", "application/x-rpm");
		types.put("war", "application/java-archive");
		types.put("heic", "image/heic");
		// The registered or the browsers' types where Spring has an older one.
		types.put("xml", "text/xml" + UTF_8);
		types.put("deb", "application/vnd.debian.binary-package");
		types.put("m4v", "video/mp4");
		types.put("wav", "audio/wav");
		types.put("flac", "audio/flac");
		// Programs and disk images are plain downloads.
		types.put("bin", UNKNOWN);
		types.put("exe", UNKNOWN);
		types.put("dmg", UNKNOWN);
		return types;
	}

}
