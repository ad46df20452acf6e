package dev.wharf.app.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decompression bombs and zip-slip. No HTTP endpoint inflates a request body: a gzip bomb
 * sent with {@code Content-Encoding: gzip} is stored as the bytes sent (the file
 * manager's save, the build cache's PUT), never inflated. Wharf unpacks no archive
 * anywhere; it only writes zips (the file manager's {@code zip} download), and every
 * entry name in them must stay inside the folder it is unpacked into: no {@code ..}, no
 * absolute path, no backslash, no drive letter. (The build cache's own deflate bomb at
 * rest: module-buildcache's {@code CacheStoreTests}; image bombs: module-filemanager's
 * {@code ImageThumbnailerTests} and {@code ThumbnailHttpTests}.)
 */
class ArchiveAndEncodingTests extends HostileServerTestBase {

	/**
	 * 256 MiB of zeros, gzipped to about 250 KB: within the body limit, a bomb if
	 * inflated.
	 */
	private static final byte[] BOMB = gzippedZeros(256 * 1024 * 1024);

	@ParameterizedTest
	@ValueSource(strings = { "save", "cache" })
	void aGzipBodyIsStoredAsSentNeverInflated(String endpoint) throws Exception {
		String name = unique("bomb");
		String head = endpoint.equals("save")
				? "POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nCookie: " + alice()
						+ "\r\nX-Requested-With: XmlHttpRequest\r\n"
				: "PUT /cache/" + name + " HTTP/1.1\r\nAuthorization: " + ciAuthorization() + "\r\n";
		try (RawHttp wire = RawHttp.open(this.port)) {
			wire.send(head + "Host: x\r\nContent-Encoding: gzip\r\nContent-Length: " + BOMB.length + "\r\n\r\n");
			RawHttp.Response answer = wire.send(BOMB).read();
			assertThat(answer.status()).isIn(200, 201);
		}
		if (endpoint.equals("save")) {
			assertThat(Files.readAllBytes(DATA.resolve(name))).isEqualTo(BOMB);
		}
		else {
			RawHttp.Response entry = RawHttp.exchange(this.port, "GET /cache/" + name
					+ " HTTP/1.1\r\nHost: x\r\nAuthorization: " + ciAuthorization() + "\r\nConnection: close\r\n\r\n");
			assertThat(entry.body()).isEqualTo(BOMB);
		}
	}

	@Test
	void zipEntryNamesStayInsideTheFolderTheyAreUnpackedInto() throws Exception {
		// Names that are legal in storage and would be dangerous in a careless archive.
		Path tree = Files.createDirectories(DATA.resolve("zipslip"));
		for (String name : new String[] { "..a", "...", "..", "-rf", "C:", "c:evil", "a:b", " lead", "trail ",
				"\u202Egnp.exe", "%2e%2e", "~" }) {
			if (!name.equals("..")) {
				Path folder = Files.createDirectories(tree.resolve(name));
				Files.writeString(folder.resolve("file.txt"), name);
				Files.writeString(tree.resolve(name + ".txt"), name);
			}
		}
		List<String> names = new ArrayList<>();
		for (String target : new String[] { "/data/zipslip", "/data/zipslip/C:", "/data/zipslip/c%3Aevil.txt",
				"/data/zipslip/..a&path=/data/zipslip/..." }) {
			String encoded = target.replace(":", "%3A").replace(" ", "%20");
			RawHttp.Response zip = RawHttp.exchange(this.port,
					"GET /api/files/zip?path=" + encoded + " HTTP/1.1\r\nHost: x\r\n" + "Cookie: " + alice()
							+ "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n");
			assertThat(zip.status()).as(target + ": " + zip.text()).isEqualTo(200);
			names.addAll(zip.zipNames());
		}
		assertThat(names).contains("zipslip/..a/file.txt", "zipslip/.../file.txt", "C_/file.txt", "c_evil.txt");
		Path into = Path.of("/unpack/here");
		for (String name : names) {
			assertThat(name).as("relative").doesNotStartWith("/").doesNotContain("\\").doesNotMatch("^[A-Za-z]:.*");
			assertThat(name.split("/")).as(name).doesNotContain("..", ".", "");
			assertThat(into.resolve(name).normalize().startsWith(into)).as(name).isTrue();
		}
	}

	private static byte[] gzippedZeros(int size) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(bytes, 64 * 1024)) {
			byte[] zeros = new byte[64 * 1024];
			for (int written = 0; written < size; written += zeros.length) {
				gzip.write(zeros);
			}
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		return bytes.toByteArray();
	}

}
