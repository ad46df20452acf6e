package dev.wharf.app.faults;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.Tmpfs;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.io.CopyStreamException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on a local mount whose disk is a real 2 MB tmpfs, filled to the
 * last byte: uploads by the file manager (507), FTP ({@code 552}) and the build cache
 * (507) fail cleanly and leave nothing, neither the file nor a temporary file; files
 * already there keep being served by every protocol; once space is freed, the same
 * uploads succeed. (The build cache's own eviction on a full disk is in
 * module-buildcache's DiskFullTests.)
 */
class DiskFullTests extends FaultTestBase {

	static Tmpfs disk;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		disk = Tmpfs.mount(Files.createDirectories(temp.resolve("disk")), "2m");
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> disk.path().toString());
		registry.add("wharf.static.sites[0].prefix", () -> "/static");
		registry.add("wharf.static.sites[0].mount", () -> "data");
		register(registry);
	}

	@AfterAll
	static void unmount() throws Exception {
		if (disk != null) {
			disk.close();
		}
	}

	@Test
	void everyProtocolRefusesUploadsCleanlyKeepsServingAndRecoversWhenSpaceIsFreed() throws Exception {
		byte[] kept = StorageTestSupport.randomBytes(1, 0, 100_000);
		byte[] entry = StorageTestSupport.randomBytes(2, 0, 50_000);
		byte[] upload = StorageTestSupport.randomBytes(3, 0, 300_000);
		assertThat(save("kept.bin", kept).status()).isEqualTo(200);
		assertThat(cache("PUT", "kept", entry).status()).isEqualTo(201);
		FTPClient ftp = ftp();
		try {
			assertThat(ftp.storeFile("/kept-ftp.bin", new ByteArrayInputStream(kept))).isTrue();

			Path filler = fill();
			// Full: reads go on, by every protocol.
			assertThat(cat("kept.bin").body()).isEqualTo(kept);
			assertThat(retrieve(ftp, "/kept-ftp.bin")).isEqualTo(kept);
			assertThat(get("/static/kept.bin").body()).isEqualTo(kept);
			assertThat(cache("GET", "kept", null).body()).isEqualTo(entry);

			// Uploads fail with the protocol's "no space" answer and leave nothing.
			Response saved = save("new.bin", upload);
			assertThat(saved.status()).isEqualTo(507);
			assertThat(saved.text()).contains("\"status\":\"error\"").doesNotContain(temp.toString());
			assertThat(storeRefused(ftp, "/new-ftp.bin", upload)).isFalse();
			assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(552);
			assertThat(cache("PUT", "new", upload).status()).isEqualTo(507);
			assertThat(files(disk.path())).noneMatch(FaultTestBase::temporary).noneMatch(name -> name.contains("new"));
			assertThat(cat("new.bin").status()).isEqualTo(404);
			assertThat(cache("GET", "new", null).status()).isEqualTo(404);
			assertThat(ftp.listNames("/")).contains("kept.bin", "kept-ftp.bin")
				.doesNotContain("new.bin", "new-ftp.bin");

			Files.delete(filler);
			assertThat(save("new.bin", upload).status()).isEqualTo(200);
			assertThat(ftp.storeFile("/new-ftp.bin", new ByteArrayInputStream(upload))).as(ftp.getReplyString())
				.isTrue();
			assertThat(cache("PUT", "new", upload).status()).isEqualTo(201);
			assertThat(cat("new.bin").body()).isEqualTo(upload);
			assertThat(retrieve(ftp, "/new-ftp.bin")).isEqualTo(upload);
			assertThat(cache("GET", "new", null).body()).isEqualTo(upload);
			// Nothing acknowledged was lost. (A cache entry may be evicted to make room:
			// the cache's rule.)
			assertThat(cat("kept.bin").body()).isEqualTo(kept);
			assertThat(retrieve(ftp, "/kept-ftp.bin")).isEqualTo(kept);
			assertThat(files(disk.path())).noneMatch(FaultTestBase::temporary);
		}
		finally {
			quit(ftp);
		}
	}

	/**
	 * Stores a file the server is expected to refuse. The server may refuse it and close
	 * the data connection while the client is still sending (a broken pipe for the
	 * client); its reply is read either way.
	 */
	private static boolean storeRefused(FTPClient ftp, String path, byte[] content) throws IOException {
		try {
			return ftp.storeFile(path, new ByteArrayInputStream(content));
		}
		catch (CopyStreamException closedWhileSending) {
			return ftp.completePendingCommand();
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

	private Response save(String name, byte[] content) throws IOException {
		return files("POST", "save", "/data/" + name, content);
	}

	private Response cat(String name) throws IOException {
		return files("GET", "cat", "/data/" + name, null);
	}

	private static byte[] retrieve(FTPClient ftp, String path) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(ftp.retrieveFile(path, out)).as(ftp.getReplyString()).isTrue();
		return out.toByteArray();
	}

}
