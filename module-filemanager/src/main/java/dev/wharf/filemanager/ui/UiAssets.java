package dev.wharf.filemanager.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The UI's files, read once from the jar. They are addressed as
 * {@code assets/<fingerprint>/<name>}, where the fingerprint is a digest of all of them:
 * any change to any file gives every file a new address, so a browser may keep them
 * forever and still never mixes two versions. One fingerprint for the whole set (rather
 * than one per file) lets the ES modules import each other by plain relative names. The
 * page itself ({@code index.html}) is revalidated on every load and names the current
 * fingerprint.
 *
 * <p>
 * Immutable and thread-safe.
 */
public final class UiAssets {

	/** Where the files are in the jar. */
	static final String LOCATION = "dev/wharf/filemanager/ui/";

	/** The files served as assets (the page is {@value #PAGE}). */
	static final List<String> NAMES = List.of("app.css", "app.js", "api.js", "dom.js", "dialogs.js", "upload.js",
			"share.js", "sharing.js");

	static final String PAGE = "index.html";

	/** The module the page loads, and the one a share link's page loads instead. */
	private static final String MAIN = "/app.js\"";

	private static final String SHARE_MAIN = "/share.js\"";

	private static final String PLACEHOLDER = "{{assets}}";

	private final String fingerprint;

	private final Map<String, byte[]> files = new LinkedHashMap<>();

	private final byte[] page;

	private final byte[] sharePage;

	private UiAssets(ClassLoader loader) {
		MessageDigest digest = sha256();
		for (String name : NAMES) {
			byte[] content = read(loader, name);
			digest.update(name.getBytes(StandardCharsets.UTF_8));
			digest.update(content);
			this.files.put(name, content);
		}
		byte[] template = read(loader, PAGE);
		digest.update(template);
		this.fingerprint = HexFormat.of().formatHex(digest.digest(), 0, 8);
		String html = new String(template, StandardCharsets.UTF_8);
		this.page = html.replace(PLACEHOLDER, "assets/" + this.fingerprint).getBytes(StandardCharsets.UTF_8);
		// The same page with the visitors' module; it is served one level below the UI's
		// root (/s/<id>).
		this.sharePage = html.replace(PLACEHOLDER + MAIN, PLACEHOLDER + SHARE_MAIN)
			.replace(PLACEHOLDER, "../assets/" + this.fingerprint)
			.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads the UI's files.
	 * @param loader the class loader that holds them
	 * @return the assets
	 * @throws IllegalStateException if a file is missing from the jar
	 */
	public static UiAssets load(ClassLoader loader) {
		return new UiAssets(loader);
	}

	/**
	 * The digest that names this version of the assets.
	 * @return 16 hex digits
	 */
	public String fingerprint() {
		return this.fingerprint;
	}

	/**
	 * The page, with the assets' current addresses.
	 * @return the bytes of {@code index.html} (do not modify)
	 */
	byte[] page() {
		return this.page;
	}

	/**
	 * The page of a share link's visitors, with the assets' current addresses.
	 * @return the bytes of {@code index.html} loading {@code share.js} (do not modify)
	 */
	public byte[] sharePage() {
		return this.sharePage;
	}

	/**
	 * An asset.
	 * @param name its name, as in {@link #NAMES}
	 * @return its bytes (do not modify), or {@code null} if there is no such asset
	 */
	byte @Nullable [] asset(String name) {
		return this.files.get(name);
	}

	private static byte[] read(ClassLoader loader, String name) {
		try (InputStream in = loader.getResourceAsStream(LOCATION + name)) {
			if (in == null) {
				throw new IllegalStateException("The jar lacks the UI file " + LOCATION + name);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
