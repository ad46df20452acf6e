package dev.wharf.filemanager.zip;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import dev.wharf.filemanager.testsupport.Zips;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/files/zip}, over real HTTP, read back with
 * {@link java.util.zip.ZipInputStream}.
 */
class ZipTests extends FileManagerTestBase {

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private void save(String path, byte[] content) {
		assertThat(this.api.post("/api/files/save?path=" + path).browser(this.cookie).body(content).send().status())
			.isEqualTo(200);
	}

	@Test
	void zipsAFolderWithItsTreeAndNamesTheDownload() throws IOException {
		String folder = unique("album");
		byte[] big = StorageTestSupport.randomBytes(5, 0, 1_500_000);
		this.api.post("/api/files/mkdir?path=/data/" + folder).browser(this.cookie).send();
		this.api.post("/api/files/mkdir?path=/data/" + folder + "/empty").browser(this.cookie).send();
		save("/data/" + folder + "/photo.jpg", big);
		save("/data/" + folder + "/notes.txt", "notes".getBytes(StandardCharsets.UTF_8));
		Answer answer = this.api.get("/api/files/zip?path=/data/" + folder).header("Cookie", this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.header("Content-Type")).isEqualTo("application/zip");
		assertThat(answer.header("Content-Disposition")).contains(folder + ".zip");
		Map<String, byte[]> entries = unzip(answer.body());
		assertThat(entries.keySet()).containsExactly(folder + "/", folder + "/empty/", folder + "/notes.txt",
				folder + "/photo.jpg");
		assertThat(entries.get(folder + "/photo.jpg")).isEqualTo(big);
		assertThat(new String(entries.get(folder + "/notes.txt"), StandardCharsets.UTF_8)).isEqualTo("notes");
	}

	@Test
	void anUnreadableEntryGoesIntoErrorLogAndTheDownloadCompletes() throws IOException {
		String folder = unique("broken");
		this.api.post("/api/files/mkdir?path=/faulty/" + folder).browser(this.cookie).send();
		save("/faulty/" + folder + "/good.txt", "good".getBytes(StandardCharsets.UTF_8));
		save("/faulty/" + folder + "/unreadable.bin", "lost".getBytes(StandardCharsets.UTF_8));
		save("/faulty/" + folder + "/unreadable-late.bin", "partly there".getBytes(StandardCharsets.UTF_8));
		save("/faulty/" + folder + "/z-after.txt", "after".getBytes(StandardCharsets.UTF_8));
		Answer answer = this.api.get("/api/files/zip?path=/faulty/" + folder).browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		Map<String, byte[]> entries = unzip(answer.body());
		assertThat(entries).containsKeys(folder + "/good.txt", folder + "/z-after.txt", folder + "/unreadable-late.bin",
				"error.log");
		assertThat(entries).doesNotContainKey(folder + "/unreadable.bin");
		assertThat(new String(entries.get(folder + "/z-after.txt"), StandardCharsets.UTF_8)).isEqualTo("after");
		String log = new String(entries.get("error.log"), StandardCharsets.UTF_8);
		assertThat(log).contains(folder + "/unreadable.bin: cannot read the file")
			.contains(folder + "/unreadable-late.bin: reading failed part-way");
	}

	@Test
	void severalPathsAcrossMountsGoInOneZipWithDistinctNames() throws IOException {
		String name = unique("same");
		save("/data/" + name, "from data".getBytes(StandardCharsets.UTF_8));
		save("/scratch/" + name, "from scratch".getBytes(StandardCharsets.UTF_8));
		Answer answer = this.api.get("/api/files/zip?path=/data/" + name + "&path=/scratch/" + name)
			.browser(this.cookie)
			.send();
		assertThat(answer.header("Content-Disposition")).contains("download.zip");
		Map<String, byte[]> entries = unzip(answer.body());
		assertThat(entries.keySet()).containsExactly(name, name + " (2)");
		assertThat(new String(entries.get(name + " (2)"), StandardCharsets.UTF_8)).isEqualTo("from scratch");
	}

	@Test
	void missingPathsAreRefusedBeforeAnythingIsSent() {
		assertThat(this.api.get("/api/files/zip?path=/data/" + unique("none")).browser(this.cookie).send().status())
			.isEqualTo(404);
		assertThat(this.api.get("/api/files/zip").browser(this.cookie).send().status()).isEqualTo(400);
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.get("/api/files/zip?path=/scratch/").browser(bob).send().status()).isEqualTo(404);
	}

	@Test
	void filesOfACompressedTypeAreNotCompressedAgain(@TempDir Path temp) throws IOException {
		String folder = unique("types");
		this.api.post("/api/files/mkdir?path=/data/" + folder).browser(this.cookie).send();
		byte[] zeros = new byte[64 * 1024];
		// The type is core's registry's, the one the file manager and static sites send
		// the file with.
		List<String> compressed = List.of("photo.jpg", "song.MP3", "letter.docx", "backup.tar.gz", "book.epub",
				"pkg.deb");
		List<String> plain = List.of("notes.txt", "sound.wav", "data.bin", "Makefile");
		for (String name : Stream.concat(compressed.stream(), plain.stream()).toList()) {
			save("/data/" + folder + "/" + name, zeros);
		}
		Answer answer = this.api.get("/api/files/zip?path=/data/" + folder).browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		Path file = Files.write(temp.resolve("types.zip"), answer.body());
		try (ZipFile zip = new ZipFile(file.toFile())) {
			for (String name : compressed) {
				assertThat(zip.getEntry(folder + "/" + name).getCompressedSize()).as(name).isGreaterThan(zeros.length);
			}
			for (String name : plain) {
				assertThat(zip.getEntry(folder + "/" + name).getCompressedSize()).as(name).isLessThan(1024);
			}
		}
	}

	private static Map<String, byte[]> unzip(byte[] zip) throws IOException {
		Map<String, byte[]> entries = Zips.entries(zip);
		for (String name : entries.keySet()) {
			assertThat(name).doesNotStartWith("/").doesNotContain("..").doesNotContain("\\");
		}
		return entries;
	}

}
