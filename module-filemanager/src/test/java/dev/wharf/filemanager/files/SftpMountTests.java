package dev.wharf.filemanager.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.OpenSshServer;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file manager over an {@code sftp} mount served by a real OpenSSH {@code sshd} on
 * 127.0.0.1: what a browser does (save, ls, cat with a range, cp, mv, zip, rm) lands as
 * real files in the server's folder, and a server that dies gives 503 with
 * {@code Retry-After} until it is back. The context is its own (another set of mounts)
 * and is closed after the class, so no mount outlives its server.
 */
@SpringBootTest(classes = FileManagerTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
class SftpMountTests {

	private static final String PASSWORD = "sftp-mount-password";

	private static final Path ROOT = temporaryFolder("wharf-filemanager-sftp");

	/** The folder the sftp mount serves, on the sshd's side. */
	private static final Path SERVED = ROOT.resolve("served");

	private static OpenSshServer sshd;

	@LocalServerPort
	private int port;

	private Api api;

	private String cookie;

	@DynamicPropertySource
	static void sftpMount(DynamicPropertyRegistry registry) throws Exception {
		Files.createDirectories(SERVED);
		sshd = OpenSshServer.start(Files.createDirectories(ROOT.resolve("sshd")));
		registry.add("wharf.state-dir", () -> ROOT.resolve("state").toString());
		String mount = "wharf.storage.mounts.remote.";
		registry.add(mount + "type", () -> "sftp");
		registry.add(mount + "host", sshd::host);
		registry.add(mount + "port", () -> Integer.toString(sshd.port()));
		registry.add(mount + "username", sshd::user);
		registry.add(mount + "private-key", () -> "file:" + sshd.clientKey());
		registry.add(mount + "known-hosts", sshd::knownHostsLine);
		registry.add(mount + "root", SERVED::toString);
		// A dead server must be noticed quickly on a busy machine, yet never by a healthy
		// one.
		registry.add(mount + "connect-timeout", () -> "10s");
		registry.add("wharf.storage.mounts.scratch.type", () -> "memory");
		String hash = PasswordHashing.hash(PASSWORD);
		registry.add("wharf.security.users[0].name", () -> "alice");
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "user");
		registry.add("wharf.security.users[0].mounts.remote", () -> "rw");
		registry.add("wharf.security.users[0].mounts.scratch", () -> "rw");
	}

	@AfterAll
	static void stopSshd() throws IOException {
		if (sshd != null) {
			sshd.close();
		}
		FileSystemUtils.deleteRecursively(ROOT);
	}

	@BeforeEach
	void login() {
		this.api = new Api(this.port);
		this.cookie = this.api.login("alice", PASSWORD);
	}

	@Test
	void savedFilesAreRealFilesOnTheServerAndCanBeListedReadCopiedMovedZippedAndDeleted() throws IOException {
		String folder = "album-" + System.nanoTime();
		byte[] photo = StorageTestSupport.randomBytes(11, 0, 700_000);
		assertThat(post("/api/files/mkdir?path=/remote/" + folder).status()).isEqualTo(200);
		Answer saved = this.api.post("/api/files/save?path=/remote/" + folder + "/photo.bin")
			.browser(this.cookie)
			.body(photo)
			.send();
		assertThat(saved.status()).as(saved.text()).isEqualTo(200);
		assertThat(Files.readAllBytes(SERVED.resolve(folder).resolve("photo.bin"))).isEqualTo(photo);
		Files.writeString(SERVED.resolve(folder).resolve("notes.txt"), "written by someone else");

		Answer listing = this.api.get("/api/files/ls?path=/remote/" + folder).browser(this.cookie).send();
		assertThat(listing.status()).isEqualTo(200);
		assertThat(listing.names()).containsExactly("notes.txt", "photo.bin");
		assertThat(listing.json().get("results").get(1).get("size").asLong()).isEqualTo(photo.length);
		assertThat(listing.json().get("results").get(1).get("type").asString()).isEqualTo("file");
		assertThat(this.api.get("/api/files/ls?path=/").browser(this.cookie).send().names()).contains("remote");

		assertThat(
				this.api.get("/api/files/cat?path=/remote/" + folder + "/notes.txt").browser(this.cookie).send().text())
			.isEqualTo("written by someone else");
		Answer range = this.api.get("/api/files/cat?path=/remote/" + folder + "/photo.bin")
			.browser(this.cookie)
			.header("Range", "bytes=100-199")
			.send();
		assertThat(range.status()).isEqualTo(206);
		assertThat(range.body()).isEqualTo(Arrays.copyOfRange(photo, 100, 200));

		assertThat(
				post("/api/files/cp?from=/remote/" + folder + "/photo.bin&to=/remote/" + folder + "/copy.bin").status())
			.isEqualTo(200);
		assertThat(post("/api/files/cp?from=/remote/" + folder + "/notes.txt&to=/scratch/" + folder + ".txt").status())
			.isEqualTo(200);
		assertThat(post("/api/files/mv?from=/remote/" + folder + "/notes.txt&to=/remote/" + folder + "/moved.txt")
			.status()).isEqualTo(200);
		assertThat(
				post("/api/files/mv?from=/remote/" + folder + "/moved.txt&to=/remote/" + folder + "/copy.bin").status())
			.as("never replaces")
			.isEqualTo(409);
		assertThat(Files.readAllBytes(SERVED.resolve(folder).resolve("copy.bin"))).isEqualTo(photo);
		assertThat(SERVED.resolve(folder).resolve("notes.txt")).doesNotExist();
		assertThat(SERVED.resolve(folder).resolve("moved.txt")).hasContent("written by someone else");
		assertThat(this.api.get("/api/files/cat?path=/scratch/" + folder + ".txt").browser(this.cookie).send().text())
			.isEqualTo("written by someone else");

		Answer zip = this.api.get("/api/files/zip?path=/remote/" + folder).header("Cookie", this.cookie).send();
		assertThat(zip.status()).isEqualTo(200);
		assertThat(unzip(zip.body())).containsExactly(folder + "/", folder + "/copy.bin", folder + "/moved.txt",
				folder + "/photo.bin");

		assertThat(post("/api/files/rm?path=/remote/" + folder).status()).isEqualTo(200);
		assertThat(SERVED.resolve(folder)).doesNotExist();
		assertThat(this.api.get("/api/files/ls?path=/remote/" + folder).browser(this.cookie).send().status())
			.isEqualTo(404);
	}

	@Test
	void aReplacedFileIsNeverSeenHalfWrittenAndNoTemporaryFileIsListed() throws IOException {
		String name = "report-" + System.nanoTime() + ".txt";
		assertThat(this.api.post("/api/files/save?path=/remote/" + name)
			.browser(this.cookie)
			.body("first")
			.send()
			.status()).isEqualTo(200);
		byte[] second = StorageTestSupport.randomBytes(12, 0, 300_000);
		assertThat(
				this.api.post("/api/files/save?path=/remote/" + name).browser(this.cookie).body(second).send().status())
			.isEqualTo(200);
		assertThat(this.api.get("/api/files/cat?path=/remote/" + name).browser(this.cookie).send().body())
			.isEqualTo(second);
		assertThat(this.api.get("/api/files/ls?path=/remote/").browser(this.cookie).send().names()).contains(name)
			.noneMatch((listed) -> listed.startsWith(".wharf"));
		try (var files = Files.list(SERVED)) {
			assertThat(files.map((file) -> file.getFileName().toString()))
				.noneMatch((file) -> file.startsWith(".wharf-tmp"));
		}
	}

	@Test
	void aResumableUploadKeepsItsPiecesOnTheServerAndAppearsOnlyWhenComplete() throws IOException {
		String name = "upload-" + System.nanoTime() + ".bin";
		byte[] file = StorageTestSupport.randomBytes(13, 0, 400_000);
		Answer created = this.api.post("/api/files/upload?path=/remote/" + name)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", Integer.toString(file.length))
			.send();
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		String location = created.header("Location");
		assertThat(tusPatch(location, 0, Arrays.copyOf(file, 150_000)).header("Upload-Offset")).isEqualTo("150000");
		assertThat(SERVED.resolve(name)).as("nothing at the target before the last byte").doesNotExist();
		assertThat(this.api.get("/api/files/ls?path=/remote/").browser(this.cookie).send().names()).doesNotContain(name)
			.noneMatch((listed) -> listed.startsWith(".wharf"));
		Answer last = tusPatch(location, 150_000, Arrays.copyOfRange(file, 150_000, file.length));
		assertThat(last.status()).as(last.text()).isEqualTo(204);
		assertThat(Files.readAllBytes(SERVED.resolve(name))).isEqualTo(file);
	}

	private Answer tusPatch(String location, long offset, byte[] bytes) {
		return this.api.tusPatch(location, offset).browser(this.cookie).body(bytes).send();
	}

	@Test
	void aServerThatDiesGives503UntilItIsBack() throws Exception {
		String name = "alive-" + System.nanoTime() + ".txt";
		assertThat(
				this.api.post("/api/files/save?path=/remote/" + name).browser(this.cookie).body("here").send().status())
			.isEqualTo(200);
		sshd.kill();
		try {
			Answer down = this.api.get("/api/files/ls?path=/remote/").browser(this.cookie).send();
			assertThat(down.status()).isEqualTo(503);
			assertThat(down.header("Retry-After")).isEqualTo("5");
			assertThat(down.json().get("status").asString()).isEqualTo("error");
			assertThat(down.text()).doesNotContain(SERVED.toString());
			assertThat(this.api.get("/api/files/ls?path=/scratch/").browser(this.cookie).send().status())
				.as("other mounts keep working")
				.isEqualTo(200);
		}
		finally {
			sshd.start();
		}
		assertThat(this.api.get("/api/files/cat?path=/remote/" + name).browser(this.cookie).send().text())
			.isEqualTo("here");
	}

	private Answer post(String target) {
		return this.api.post(target).browser(this.cookie).send();
	}

	private static List<String> unzip(byte[] zip) throws IOException {
		List<String> names = new ArrayList<>();
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
			for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
				names.add(entry.getName());
			}
		}
		return names;
	}

	private static Path temporaryFolder(String prefix) {
		try {
			return Files.createTempDirectory(prefix).toRealPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
