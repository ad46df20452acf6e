package dev.wharf.staticfiles.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageTestSupport;

/**
 * The files every static server test serves, written under {@code /site} of a mount.
 * Sizes are chosen around the test servers' {@code cache.max-file-size} of 1 KB, so both
 * the cached path (bytes in memory) and the uncached one (sendfile or a storage stream)
 * are exercised.
 */
final class SiteFixture {

	/** 87 bytes, as in the Socko table: cached. */
	static final byte[] SMALL = StorageTestSupport.randomBytes(1, 0, 87);

	/** 200 KB: never cached, sent with sendfile from local mounts. */
	static final byte[] BIG = StorageTestSupport.randomBytes(2, 0, 200 * 1024);

	/** 5 KB of HTML: gzipped on the fly, as a stream (over the cache's file size). */
	static final byte[] PAGE = repeat("<p>Wharf serves static files.</p>\n", 150);

	/**
	 * 900 bytes of CSS: cached and gzipped once (over the 512-byte gzip minimum of the
	 * test sites).
	 */
	static final byte[] STYLE = repeat("body { margin: 0; }\n", 45);

	/** JavaScript with precompressed siblings. */
	static final byte[] APP = repeat("console.log('wharf');\n", 200);

	/**
	 * The brotli sibling: not real brotli; the server never decodes it, it only picks it.
	 */
	static final byte[] APP_BR = "brotli bytes of app.js".getBytes(StandardCharsets.US_ASCII);

	static final byte[] APP_GZ = gzip(APP);

	private SiteFixture() {
	}

	static void write(Storage storage) {
		TestMounts.write(storage, "/site/small.txt", SMALL);
		TestMounts.write(storage, "/site/big.bin", BIG);
		TestMounts.write(storage, "/site/page.html", PAGE);
		TestMounts.write(storage, "/site/style.css", STYLE);
		TestMounts.write(storage, "/site/app.js", APP);
		TestMounts.write(storage, "/site/app.js.br", APP_BR);
		TestMounts.write(storage, "/site/app.js.gz", APP_GZ);
		TestMounts.write(storage, "/site/image.png", StorageTestSupport.randomBytes(3, 0, 3000));
		TestMounts.write(storage, "/site/notes.wharfdoc", "notes".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/data", "no extension".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/empty.txt", new byte[0]);
		TestMounts.write(storage, "/site/assets/app.1234.js", APP);
		TestMounts.write(storage, "/site/docs/index.html", "<h1>docs</h1>".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/docs/guide/index.htm", "<h1>guide</h1>".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/plain/readme.txt", "readme".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/.hidden", "hidden".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/.git/config", "secret".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/.well-known/security.txt", "Contact: x".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/spa/index.html", "<h1>app</h1>".getBytes(StandardCharsets.US_ASCII));
		TestMounts.write(storage, "/site/na\u00efve caf\u00e9.txt", "utf8".getBytes(StandardCharsets.US_ASCII));
	}

	static byte[] repeat(String text, int times) {
		return text.repeat(times).getBytes(StandardCharsets.US_ASCII);
	}

	static byte[] gzip(byte[] data) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
			gzip.write(data);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

}
