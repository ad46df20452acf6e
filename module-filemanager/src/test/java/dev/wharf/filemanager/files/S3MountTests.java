package dev.wharf.filemanager.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.testsupport.JvmTempFolder;
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
import software.amazon.awssdk.core.sync.RequestBody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The file manager over an {@code s3} mount on a real S3 server (S3Proxy keeping objects
 * as files, on 127.0.0.1): what a browser does (save, mkdir, ls, cat with a range, cp,
 * mv, search, zip, rm, a resumable upload) lands as objects in the bucket, and a download
 * whose server dies ends short of its length instead of looking complete. The context is
 * its own and closed after the class, so no mount outlives its server.
 */
@SpringBootTest(classes = FileManagerTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
class S3MountTests {

	private static final String PASSWORD = "s3-mount-password";

	private static final String BUCKET = "files";

	private static final int MB = 1024 * 1024;

	private static final Path ROOT = JvmTempFolder.create("wharf-filemanager-s3");

	private static S3ProxyProcess s3;

	@LocalServerPort
	private int port;

	private Api api;

	private String cookie;

	@DynamicPropertySource
	static void s3Mount(DynamicPropertyRegistry registry) throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.FILESYSTEM, ROOT.resolve("s3"));
		s3.createBucket(BUCKET);
		registry.add("wharf.state-dir", () -> ROOT.resolve("state").toString());
		s3.mountProperties("objects", BUCKET).forEach((name, value) -> registry.add(name, () -> value));
		registry.add("wharf.storage.mounts.objects.prefix", () -> "team");
		registry.add("wharf.storage.mounts.objects.part-size", () -> "5MB");
		registry.add("wharf.storage.mounts.scratch.type", () -> "memory");
		// Resumable uploads keep pieces of S3's smallest part size, so that they are
		// copied on the server.
		registry.add("wharf.filemanager.uploads.segment-size", () -> "5MB");
		String hash = PasswordHashing.hash(PASSWORD);
		registry.add("wharf.security.users[0].name", () -> "alice");
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "user");
		registry.add("wharf.security.users[0].mounts.objects", () -> "rw");
		registry.add("wharf.security.users[0].mounts.scratch", () -> "rw");
	}

	@AfterAll
	static void stopS3() throws IOException {
		if (s3 != null) {
			s3.close();
		}
		FileSystemUtils.deleteRecursively(ROOT);
	}

	@BeforeEach
	void login() {
		this.api = new Api(this.port);
		this.cookie = this.api.login("alice", PASSWORD);
	}

	private byte[] object(String key) {
		return s3.client().getObjectAsBytes(b -> b.bucket(BUCKET).key("team/" + key)).asByteArray();
	}

	private boolean exists(String key) {
		return !s3.client().listObjectsV2(b -> b.bucket(BUCKET).prefix("team/" + key)).contents().isEmpty();
	}

	@Test
	void savedFilesAreObjectsAndCanBeListedReadCopiedMovedSearchedZippedAndDeleted() throws IOException {
		String folder = "album-" + System.nanoTime();
		byte[] photo = StorageTestSupport.randomBytes(11, 0, 7 * MB);
		assertThat(post("/api/files/mkdir?path=/objects/" + folder).status()).isEqualTo(200);
		Answer saved = this.api.post("/api/files/save?path=/objects/" + folder + "/photo.bin")
			.browser(this.cookie)
			.body(photo)
			.send();
		assertThat(saved.status()).as(saved.text()).isEqualTo(200);
		assertThat(object(folder + "/photo.bin")).isEqualTo(photo);
		s3.client()
			.putObject(b -> b.bucket(BUCKET).key("team/" + folder + "/notes.txt"),
					RequestBody.fromString("written by someone else"));

		Answer listing = this.api.get("/api/files/ls?path=/objects/" + folder).browser(this.cookie).send();
		assertThat(listing.status()).isEqualTo(200);
		assertThat(listing.names()).containsExactly("notes.txt", "photo.bin");
		assertThat(listing.json().get("results").get(1).get("size").asLong()).isEqualTo(photo.length);
		assertThat(this.api.get("/api/files/ls?path=/").browser(this.cookie).send().names()).contains("objects");

		assertThat(this.api.get("/api/files/cat?path=/objects/" + folder + "/notes.txt")
			.browser(this.cookie)
			.send()
			.text()).isEqualTo("written by someone else");
		Answer range = this.api.get("/api/files/cat?path=/objects/" + folder + "/photo.bin")
			.browser(this.cookie)
			.header("Range", "bytes=6000000-6000099")
			.send();
		assertThat(range.status()).isEqualTo(206);
		assertThat(range.body()).isEqualTo(Arrays.copyOfRange(photo, 6_000_000, 6_000_100));

		Answer found = this.api.get("/api/files/search?path=/objects/&q=notes").browser(this.cookie).send();
		assertThat(found.status()).isEqualTo(200);
		assertThat(found.json().path("results").toString()).contains(folder + "/notes.txt");

		assertThat(post("/api/files/cp?from=/objects/" + folder + "/photo.bin&to=/objects/" + folder + "/copy.bin")
			.status()).isEqualTo(200);
		assertThat(post("/api/files/cp?from=/objects/" + folder + "/notes.txt&to=/scratch/" + folder + ".txt").status())
			.isEqualTo(200);
		assertThat(post("/api/files/mv?from=/objects/" + folder + "/notes.txt&to=/objects/" + folder + "/moved.txt")
			.status()).isEqualTo(200);
		assertThat(post("/api/files/mv?from=/objects/" + folder + "/moved.txt&to=/objects/" + folder + "/copy.bin")
			.status()).as("never replaces").isEqualTo(409);
		assertThat(object(folder + "/copy.bin")).isEqualTo(photo);
		assertThat(exists(folder + "/notes.txt")).isFalse();
		assertThat(new String(object(folder + "/moved.txt"))).isEqualTo("written by someone else");
		assertThat(this.api.get("/api/files/cat?path=/scratch/" + folder + ".txt").browser(this.cookie).send().text())
			.isEqualTo("written by someone else");
		assertThat(post("/api/files/mv?from=/objects/" + folder + "&to=/objects/" + folder + "-renamed").status())
			.isEqualTo(200);

		Answer zip = this.api.get("/api/files/zip?path=/objects/" + folder + "-renamed")
			.header("Cookie", this.cookie)
			.send();
		assertThat(zip.status()).isEqualTo(200);
		assertThat(unzip(zip.body())).containsExactly(folder + "-renamed/", folder + "-renamed/copy.bin",
				folder + "-renamed/moved.txt", folder + "-renamed/photo.bin");

		assertThat(post("/api/files/rm?path=/objects/" + folder + "-renamed").status()).isEqualTo(200);
		assertThat(exists(folder)).isFalse();
		assertThat(
				this.api.get("/api/files/ls?path=/objects/" + folder + "-renamed").browser(this.cookie).send().status())
			.isEqualTo(404);
	}

	@Test
	void aResumableUploadIsAssembledOnTheServerAndAppearsOnlyWhenComplete() {
		String name = "upload-" + System.nanoTime() + ".bin";
		byte[] file = StorageTestSupport.randomBytes(13, 0, 12 * MB + 4321);
		String location = create(name, file.length);
		// Pieces of 5 MB, 1 MB (a short PATCH) and the rest: S3 copies what it can, Wharf
		// streams the others.
		assertThat(tusPatch(location, 0, Arrays.copyOf(file, 5 * MB)).header("Upload-Offset"))
			.isEqualTo(Integer.toString(5 * MB));
		assertThat(tusPatch(location, 5 * MB, Arrays.copyOfRange(file, 5 * MB, 6 * MB)).header("Upload-Offset"))
			.isEqualTo(Integer.toString(6 * MB));
		assertThat(exists(name)).as("nothing at the target before the last byte").isFalse();
		assertThat(this.api.get("/api/files/ls?path=/objects/").browser(this.cookie).send().names())
			.doesNotContain(name)
			.noneMatch((listed) -> listed.startsWith(".wharf"));
		Answer last = tusPatch(location, 6 * MB, Arrays.copyOfRange(file, 6 * MB, file.length));
		assertThat(last.status()).as(last.text()).isEqualTo(204);
		assertThat(object(name)).isEqualTo(file);
		String eTag = s3.client().headObject(b -> b.bucket(BUCKET).key("team/" + name)).eTag();
		assertThat(eTag).as("a multipart upload of copied and streamed parts").matches("\"[0-9a-f]+-[0-9]+\"");
		assertThat(s3.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();
	}

	@Test
	void aDownloadWhoseServerDiesEndsShortOfItsLength() throws Exception {
		String name = "large-" + System.nanoTime() + ".bin";
		// Far more than the 20-odd MB that the SDK's window and the sockets' buffers hold
		// on their way.
		byte[] file = StorageTestSupport.randomBytes(17, 0, 96 * MB);
		assertThat(
				this.api.post("/api/files/save?path=/objects/" + name).browser(this.cookie).body(file).send().status())
			.isEqualTo(200);
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/files/cat?path=/objects/" + name))
			.header("Cookie", this.cookie)
			.header("X-Requested-With", "XmlHttpRequest")
			.build();
		HttpResponse<InputStream> response = HttpClient.newHttpClient()
			.send(request, HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(file.length);
		long[] received = { 0 };
		try (InputStream body = response.body()) {
			byte[] buffer = new byte[64 * 1024];
			while (received[0] < MB) {
				received[0] += body.read(buffer);
			}
			s3.kill();
			assertThatThrownBy(() -> {
				for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
					received[0] += n;
				}
			}).isInstanceOf(IOException.class);
		}
		finally {
			s3.restart();
		}
		assertThat(received[0]).isLessThan(file.length);
		assertThat(this.api.get("/api/files/ls?path=/objects/").browser(this.cookie).send().names()).contains(name);
	}

	private String create(String name, long length) {
		Answer created = this.api.post("/api/files/upload?path=/objects/" + name)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", Long.toString(length))
			.send();
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.header("Location");
	}

	private Answer tusPatch(String location, long offset, byte[] bytes) {
		return this.api.tusPatch(location, offset).browser(this.cookie).body(bytes).send();
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

}
