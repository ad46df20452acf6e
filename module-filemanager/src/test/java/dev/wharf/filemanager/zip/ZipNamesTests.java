package dev.wharf.filemanager.zip;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import dev.wharf.core.testsupport.Requirements;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Non-ASCII names in a zip downloaded from the running file manager, as Debian's
 * {@code unzip} (Info-ZIP), Python's {@code zipfile} and the headers themselves show
 * them. Info-ZIP trusts the UTF-8 flag only for entries made on Unix; entries said to be
 * made on MS-DOS get their names converted from the OEM code page, which garbles them. So
 * every entry says it was made on Unix, with Unix mode bits, and carries the Info-ZIP
 * Unicode Path extra field as well.
 */
class ZipNamesTests extends FileManagerTestBase {

	private static final String FILE = "日本 note 🎉.txt";

	private static final String FOLDER = "写真";

	private static final String NESTED = "café ü.txt";

	@TempDir
	Path download;

	private String folder;

	private Path zip;

	@BeforeEach
	void downloadZip() throws IOException {
		this.folder = unique("names");
		Path local = Files.createDirectories(ROOT.resolve("data").resolve(this.folder).resolve(FOLDER));
		Files.writeString(local.getParent().resolve(FILE), "party", StandardCharsets.UTF_8);
		Files.writeString(local.resolve(NESTED), "nested", StandardCharsets.UTF_8);
		Answer answer = this.api.get("/api/files/zip?path=/data/" + this.folder).browser(alice()).send();
		assertThat(answer.status()).isEqualTo(200);
		this.zip = Files.write(this.download.resolve("download.zip"), answer.body());
	}

	private List<String> names() {
		return List.of(this.folder + "/", this.folder + "/" + FILE, this.folder + "/" + FOLDER + "/",
				this.folder + "/" + FOLDER + "/" + NESTED);
	}

	@Test
	void debianUnzipListsTheExactNamesAsMadeOnUnix() throws Exception {
		String unzip = Requirements.requireExecutable("unzip", "unzip").toString();
		String listing = run(unzip, "-l", this.zip.toString());
		for (String name : names()) {
			assertThat(listing).as(listing).containsPattern("(?m)^\\s+\\d+\\s+\\S+ \\S+\\s+" + quote(name) + "$");
		}
		String details = run(unzip, "-Z", this.zip.toString());
		assertThat(details).as(details).contains(" unx ").doesNotContain(" fat ");
		assertThat(details).containsPattern("(?m)^-rw-r--r-- .* unx .*" + quote(this.folder + "/" + FILE) + "$")
			.containsPattern("(?m)^drwxr-xr-x .* unx .*" + quote(this.folder + "/" + FOLDER + "/") + "$");
		assertThat(run(unzip, "-t", this.zip.toString())).contains("No errors detected");
	}

	@Test
	void pythonZipfileShowsTheExactNamesAndUnixAttributes() throws Exception {
		String python = Requirements.requireExecutable("python3", "python3").toString();
		String script = """
				import sys, zipfile
				with zipfile.ZipFile(sys.argv[1]) as z:
				    assert z.testzip() is None
				    for i in z.infolist():
				        print(i.create_system, oct(i.external_attr >> 16), i.filename, sep="|")
				""";
		String output = run(python, "-c", script, this.zip.toString());
		// In the zip's order: a folder's own entry, then its children sorted by name.
		assertThat(output.lines()).containsExactly("3|0o40755|" + this.folder + "/",
				"3|0o40755|" + this.folder + "/" + FOLDER + "/",
				"3|0o100644|" + this.folder + "/" + FOLDER + "/" + NESTED, "3|0o100644|" + this.folder + "/" + FILE);
	}

	@Test
	void everyHeaderSaysUnixUtf8AndCarriesTheUnicodePathField() throws IOException {
		byte[] bytes = Files.readAllBytes(this.zip);
		List<ZipHeaders.Header> central = ZipHeaders.centralDirectory(bytes);
		assertThat(central).extracting(ZipHeaders.Header::name).containsExactlyInAnyOrderElementsOf(names());
		for (ZipHeaders.Header header : central) {
			assertThat(header.madeBy() >> 8).as("host of %s", header.name()).isEqualTo(3);
			assertThat(header.flags() & 0x800).as("UTF-8 flag of %s", header.name()).isNotZero();
			int mode = (int) (header.externalAttributes() >>> 16);
			assertThat(mode).as("mode of %s", header.name()).isEqualTo(header.name().endsWith("/") ? 040755 : 0100644);
			assertUnicodePath(header);
			ZipHeaders.Header local = ZipHeaders.localHeader(bytes, header.localHeaderOffset());
			assertThat(local.name()).isEqualTo(header.name());
			assertThat(local.flags() & 0x800).isNotZero();
			assertUnicodePath(local);
		}
	}

	private static void assertUnicodePath(ZipHeaders.Header header) {
		byte[] field = header.extra(0x7075);
		assertThat(field).as("Unicode Path field of %s", header.name()).isNotNull();
		byte[] name = header.name().getBytes(StandardCharsets.UTF_8);
		CRC32 crc = new CRC32();
		crc.update(name);
		assertThat(field[0]).as("version").isEqualTo((byte) 1);
		assertThat(ZipHeaders.u32(field, 1)).as("CRC-32 of the name field").isEqualTo(crc.getValue());
		assertThat(new String(field, 5, field.length - 5, StandardCharsets.UTF_8)).isEqualTo(header.name());
	}

	private static String quote(String text) {
		return java.util.regex.Pattern.quote(text);
	}

	private static String run(String... command) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true);
		builder.environment().put("LANG", "C.UTF-8");
		builder.environment().put("LC_ALL", "C.UTF-8");
		builder.environment().put("PYTHONIOENCODING", "utf-8");
		Process process = builder.start();
		try {
			process.getOutputStream().close();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("finished: " + command[0]).isTrue();
			assertThat(process.exitValue()).as(output).isZero();
			return output;
		}
		finally {
			process.destroyForcibly();
		}
	}

}
