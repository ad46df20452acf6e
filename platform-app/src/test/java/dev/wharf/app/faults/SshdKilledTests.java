package dev.wharf.app.faults;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.OpenSshServer;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real OpenSSH {@code sshd} behind an {@code sftp} mount, killed in the middle of a
 * large download and of a large upload, through the file manager and through FTP, then
 * started again on the same port: the transfer fails (a download ends short of its
 * length, an upload gets an error, never a success), nothing half-written becomes
 * visible, files acknowledged before are intact, and the next requests work without
 * restarting Wharf. (The storage-level version, and 503 while the server is down, are in
 * SftpStorageTests and the file manager's SftpMountTests.)
 */
class SshdKilledTests extends FaultTestBase {

	private static final int LARGE = 24 * 1024 * 1024;

	private static final byte[] KEPT = StorageTestSupport.randomBytes(5, 0, 70_000);

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		WharfTestProperties.localMount(registry, temp);
		Path served = Files.createDirectories(temp.resolve("served"));
		String mount = "wharf.storage.mounts.remote.";
		registry.add(mount + "type", () -> "sftp");
		registry.add(mount + "host", () -> sshd.server().host());
		registry.add(mount + "port", () -> Integer.toString(sshd.server().port()));
		registry.add(mount + "username", () -> sshd.server().user());
		registry.add(mount + "private-key", () -> "file:" + sshd.server().clientKey());
		registry.add(mount + "known-hosts", () -> sshd.server().knownHostsLine());
		registry.add(mount + "root", served::toString);
		registry.add("wharf.ftp.mounts", () -> "remote");
		register(registry);
	}

	static Path served() {
		return temp.resolve("served");
	}

	@BeforeEach
	void keptFile() throws IOException {
		assertThat(save("kept.bin", KEPT).status()).isEqualTo(200);
	}

	@AfterEach
	void serverIsBackAndNothingIsLost() throws Exception {
		sshd.server().start();
		assertThat(cat("kept.bin").body()).isEqualTo(KEPT);
		awaitNoTemporaryFiles(served());
	}

	@Test
	void aFileManagerDownloadEndsShortOfItsLength() throws Exception {
		byte[] large = StorageTestSupport.randomBytes(6, 0, LARGE);
		Files.write(served().resolve("large.bin"), large);
		try (RawHttp http = RawHttp.openWithReceiveBuffer(this.port, 32 * 1024)) {
			http.sendHead("GET", "/api/files/cat?path=/remote/large.bin", headers(bearer()), -1);
			Response head = http.readHead();
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(LARGE));
			long received = http.read(256 * 1024).length;
			sshd.server().kill();
			received += http.drain();
			assertThat(received).as("the connection must close short of the length").isLessThan(LARGE);
		}
		sshd.server().start();
		assertThat(cat("large.bin").body()).isEqualTo(large);
	}

	@Test
	void aFileManagerUploadFailsAndLeavesNothing() throws Exception {
		int status;
		try (RawHttp http = RawHttp.openWithReceiveBuffer(this.port, 32 * 1024)) {
			http.sendHead("POST", "/api/files/save?path=/remote/upload.bin", headers(bearer()), LARGE);
			status = killDuringUpload(http.out(), http::readHead);
		}
		assertThat(status).as("the upload must not succeed").isNotEqualTo(200);
		sshd.server().start();
		assertThat(cat("upload.bin").status()).isEqualTo(404);
		// The temporary file is deleted through the first connection that works again.
		awaitNoTemporaryFiles(served());
		assertThat(served().resolve("upload.bin")).doesNotExist();
		byte[] again = StorageTestSupport.randomBytes(7, 0, 100_000);
		assertThat(save("upload.bin", again).status()).isEqualTo(200);
		assertThat(cat("upload.bin").body()).isEqualTo(again);
	}

	@Test
	void anFtpDownloadFailsInsteadOfEndingAsComplete() throws Exception {
		byte[] large = StorageTestSupport.randomBytes(8, 0, LARGE);
		Files.write(served().resolve("large-ftp.bin"), large);
		FTPClient ftp = ftp();
		try {
			ftp.setReceiveBufferSize(32 * 1024);
			long received;
			try (InputStream in = ftp.retrieveFileStream("/large-ftp.bin")) {
				assertThat(in).as(ftp.getReplyString()).isNotNull();
				received = in.readNBytes(256 * 1024).length;
				sshd.server().kill();
				received += drain(in);
			}
			assertThat(received).isLessThan(LARGE);
			assertThat(ftp.completePendingCommand()).as("no 226 for a transfer that failed").isFalse();
			assertThat(ftp.getReplyCode()).isIn(426, 451);
			sshd.server().start();
			ByteArrayOutputStream whole = new ByteArrayOutputStream();
			assertThat(ftp.retrieveFile("/large-ftp.bin", whole)).as(ftp.getReplyString()).isTrue();
			assertThat(whole.toByteArray()).isEqualTo(large);
		}
		finally {
			quit(ftp);
		}
	}

	@Test
	void anFtpUploadFailsAndLeavesNothing() throws Exception {
		FTPClient ftp = ftp();
		try {
			OutputStream out = ftp.storeFileStream("/upload-ftp.bin");
			assertThat(out).as(ftp.getReplyString()).isNotNull();
			killDuringUpload(out, () -> {
				out.close();
				return null;
			});
			assertThat(ftp.completePendingCommand()).as("no 226 for an upload that failed").isFalse();
			assertThat(FTPReply.isPositiveCompletion(ftp.getReplyCode())).isFalse();
			sshd.server().start();
			assertThat(ftp.listNames("/")).doesNotContain("upload-ftp.bin");
			awaitNoTemporaryFiles(served());
			assertThat(served().resolve("upload-ftp.bin")).doesNotExist();
			byte[] again = StorageTestSupport.randomBytes(9, 0, 100_000);
			assertThat(ftp.storeFile("/upload-ftp.bin", new ByteArrayInputStream(again))).as(ftp.getReplyString())
				.isTrue();
			assertThat(served().resolve("upload-ftp.bin")).hasBinaryContent(again);
		}
		finally {
			quit(ftp);
		}
	}

	/**
	 * Sends part of a large body, waits until Wharf writes it to a temporary file on the
	 * server, kills the server, sends the rest (the server may stop reading) and ends the
	 * upload.
	 * @return the status the upload got, or -1 if the connection was closed without an
	 * answer
	 */
	private static int killDuringUpload(OutputStream out, UploadEnd end) throws Exception {
		byte[] block = StorageTestSupport.randomBytes(10, 0, 64 * 1024);
		int sent = 0;
		for (; sent < 4 * 1024 * 1024; sent += block.length) {
			out.write(block);
		}
		out.flush();
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(files(served())).anyMatch(FaultTestBase::temporary));
		sshd.server().kill();
		try {
			for (; sent < LARGE; sent += block.length) {
				out.write(block);
			}
			out.flush();
		}
		catch (IOException closedByWharf) {
			// Wharf may answer and close before the body is all sent.
		}
		try {
			Response response = end.end();
			return (response != null) ? response.status() : -1;
		}
		catch (IOException closedWithoutAnswer) {
			return -1;
		}
	}

	@FunctionalInterface
	private interface UploadEnd {

		Response end() throws IOException;

	}

	private static long drain(InputStream in) {
		long total = 0;
		try {
			byte[] buffer = new byte[64 * 1024];
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				total += n;
			}
		}
		catch (IOException reset) {
			// The end of the transfer either way.
		}
		return total;
	}

	private Response save(String name, byte[] content) throws IOException {
		return files("POST", "save", "/remote/" + name, content);
	}

	private Response cat(String name) throws IOException {
		return files("GET", "cat", "/remote/" + name, null);
	}

}
