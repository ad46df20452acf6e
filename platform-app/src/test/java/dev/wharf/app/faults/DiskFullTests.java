package dev.wharf.app.faults;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.app.faults.RawHttp.Response;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.Tmpfs;
import dev.wharf.ftp.server.WharfFtpServer;
import org.apache.commons.net.ftp.FTPClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on a local mount whose disk is a real 2 MB tmpfs, filled to the last byte: uploads by
 * the file manager (507), FTP ({@code 552}) and the build cache (507) fail cleanly and leave nothing, neither
 * the file nor a temporary file; files already there keep being served by every protocol; once space is
 * freed, the same uploads succeed. (The build cache's own eviction on a full disk is in module-buildcache's
 * DiskFullTests.)
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class DiskFullTests {

	@TempDir
	static Path temp;

	static Tmpfs disk;

	@LocalServerPort
	int port;

	@Autowired
	WharfFtpServer ftpServer;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		disk = Tmpfs.mount(Files.createDirectories(temp.resolve("disk")), "2m");
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> disk.path().toString());
		registry.add("wharf.static.sites[0].prefix", () -> "/static");
		registry.add("wharf.static.sites[0].mount", () -> "data");
		FaultClients.register(registry);
	}

	@AfterAll
	static void unmount() throws Exception {
		if (disk != null) {
			disk.close();
		}
	}

	@Test
	void everyProtocolRefusesUploadsCleanlyKeepsServingAndRecoversWhenSpaceIsFreed() throws Exception {
		String bearer = FaultClients.bearer(this.port);
		byte[] kept = StorageTestSupport.randomBytes(1, 0, 100_000);
		byte[] entry = StorageTestSupport.randomBytes(2, 0, 50_000);
		byte[] upload = StorageTestSupport.randomBytes(3, 0, 300_000);
		assertThat(save(bearer, "kept.bin", kept).status()).isEqualTo(200);
		assertThat(cache("PUT", "kept", entry).status()).isEqualTo(201);
		FTPClient ftp = FaultClients.ftp(this.ftpServer.port());
		try {
			assertThat(ftp.storeFile("/kept-ftp.bin", new ByteArrayInputStream(kept))).isTrue();

			Path filler = fill();
			// Full: reads go on, by every protocol.
			assertThat(cat(bearer, "kept.bin").body()).isEqualTo(kept);
			assertThat(retrieve(ftp, "/kept-ftp.bin")).isEqualTo(kept);
			assertThat(RawHttp.exchange(this.port, "GET", "/static/kept.bin", null, null).body()).isEqualTo(kept);
			assertThat(cache("GET", "kept", null).body()).isEqualTo(entry);

			// Uploads fail with the protocol's "no space" answer and leave nothing.
			Response saved = save(bearer, "new.bin", upload);
			assertThat(saved.status()).isEqualTo(507);
			assertThat(saved.text()).contains("\"status\":\"error\"").doesNotContain(temp.toString());
			assertThat(ftp.storeFile("/new-ftp.bin", new ByteArrayInputStream(upload))).isFalse();
			assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(552);
			assertThat(cache("PUT", "new", upload).status()).isEqualTo(507);
			assertThat(FaultClients.files(disk.path())).noneMatch(FaultClients::temporary)
				.noneMatch(name -> name.contains("new"));
			assertThat(cat(bearer, "new.bin").status()).isEqualTo(404);
			assertThat(cache("GET", "new", null).status()).isEqualTo(404);
			assertThat(ftp.listNames("/")).contains("kept.bin", "kept-ftp.bin").doesNotContain("new.bin", "new-ftp.bin");

			Files.delete(filler);
			assertThat(save(bearer, "new.bin", upload).status()).isEqualTo(200);
			assertThat(ftp.storeFile("/new-ftp.bin", new ByteArrayInputStream(upload))).as(ftp.getReplyString()).isTrue();
			assertThat(cache("PUT", "new", upload).status()).isEqualTo(201);
			assertThat(cat(bearer, "new.bin").body()).isEqualTo(upload);
			assertThat(retrieve(ftp, "/new-ftp.bin")).isEqualTo(upload);
			assertThat(cache("GET", "new", null).body()).isEqualTo(upload);
			// Nothing acknowledged was lost. (A cache entry may be evicted to make room: the cache's rule.)
			assertThat(cat(bearer, "kept.bin").body()).isEqualTo(kept);
			assertThat(retrieve(ftp, "/kept-ftp.bin")).isEqualTo(kept);
			assertThat(FaultClients.files(disk.path())).noneMatch(FaultClients::temporary);
		}
		finally {
			FaultClients.quit(ftp);
		}
	}

	/** Writes a file outside Wharf until the disk has no byte left. */
	private static Path fill() throws IOException {
		Path filler = disk.path().resolve("filler");
		byte[] block = new byte[4096];
		try (OutputStream out = Files.newOutputStream(filler)) {
			while (true) {
				out.write(block);
			}
		}
		catch (IOException full) {
			assertThat(full.getMessage()).contains("No space left");
		}
		return filler;
	}

	private Response save(String bearer, String name, byte[] content) throws IOException {
		return RawHttp.exchange(this.port, "POST", "/api/files/save?path=/data/" + name, bearer, content);
	}

	private Response cat(String bearer, String name) throws IOException {
		return RawHttp.exchange(this.port, "GET", "/api/files/cat?path=/data/" + name, bearer, null);
	}

	private Response cache(String method, String key, byte[] body) throws IOException {
		return RawHttp.exchange(this.port, method, "/cache/" + key, FaultClients.basic(), body);
	}

	private static byte[] retrieve(FTPClient ftp, String path) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(ftp.retrieveFile(path, out)).as(ftp.getReplyString()).isTrue();
		return out.toByteArray();
	}

}
