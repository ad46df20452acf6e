package dev.wharf.ftp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.sftp.SftpStorageProvider;
import dev.wharf.core.testsupport.OpenSshServer;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * FTP in front of an {@code sftp} mount on a real OpenSSH {@code sshd}: the FTP server
 * knows nothing of the backend, so every command goes through the storage SPI to the
 * remote server, and an interrupted upload leaves neither the file nor the backend's
 * temporary file behind.
 */
class FtpOverSftpTests {

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	@TempDir
	static Path temp;

	static Path remoteRoot;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws IOException {
		remoteRoot = Files.createDirectories(temp.resolve("remote"));
		Map<String, String> source = Map.of(MountDefinition.PREFIX + ".remote.type", SftpStorageProvider.TYPE,
				MountDefinition.PREFIX + ".remote.host", sshd.server().host(), MountDefinition.PREFIX + ".remote.port",
				Integer.toString(sshd.server().port()), MountDefinition.PREFIX + ".remote.username",
				sshd.server().user(), MountDefinition.PREFIX + ".remote.private-key",
				"file:" + sshd.server().clientKey(), MountDefinition.PREFIX + ".remote.known-hosts",
				sshd.server().knownHostsLine(), MountDefinition.PREFIX + ".remote.root", remoteRoot.toString());
		MountDefinition definition = new MountDefinition("remote", SftpStorageProvider.TYPE,
				new Binder(new MapConfigurationPropertySource(source)));
		server = FtpTestServer.start(temp, options -> options.remote = new SftpStorageProvider().create(definition));
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void filesAreManagedOnTheSftpServer() throws IOException {
		byte[] content = new byte[3 * 1024 * 1024 + 17];
		new Random(7).nextBytes(content);
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			assertThat(alice.listNames("/")).contains("data", "remote");
			assertThat(alice.changeWorkingDirectory("/remote")).isTrue();
			assertThat(alice.makeDirectory("dir")).isTrue();
			assertThat(alice.storeFile("dir/big.bin", new ByteArrayInputStream(content))).isTrue();
			assertThat(remoteRoot.resolve("dir/big.bin")).hasBinaryContent(content);

			FTPFile[] listed = alice.mlistDir("dir");
			assertThat(listed).extracting(FTPFile::getName).containsExactly("big.bin");
			assertThat(listed[0].getSize()).isEqualTo(content.length);
			assertThat(alice.getSize("dir/big.bin")).isEqualTo(Integer.toString(content.length));
			assertThat(alice.getModificationTime("dir/big.bin")).matches("\\d{14}(\\.\\d+)?");

			ByteArrayOutputStream whole = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("dir/big.bin", whole)).isTrue();
			assertThat(whole.toByteArray()).isEqualTo(content);
			alice.setRestartOffset(1_000_000);
			ByteArrayOutputStream tail = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("dir/big.bin", tail)).isTrue();
			assertThat(tail.toByteArray()).isEqualTo(Arrays.copyOfRange(content, 1_000_000, content.length));

			// The sftp backend can append, so APPE works here.
			byte[] line = "line\n".getBytes(StandardCharsets.UTF_8);
			assertThat(alice.storeFile("dir/log.txt", new ByteArrayInputStream(line))).isTrue();
			assertThat(alice.appendFile("dir/log.txt", new ByteArrayInputStream(line))).isTrue();
			assertThat(remoteRoot.resolve("dir/log.txt")).hasContent("line\nline\n");

			assertThat(alice.rename("dir/big.bin", "dir/moved.bin")).isTrue();
			assertThat(remoteRoot.resolve("dir/big.bin")).doesNotExist();
			assertThat(remoteRoot.resolve("dir/moved.bin")).hasBinaryContent(content);
			assertThat(alice.deleteFile("dir/moved.bin")).isTrue();
			assertThat(alice.deleteFile("dir/log.txt")).isTrue();
			assertThat(alice.removeDirectory("dir")).isTrue();
			assertThat(remoteRoot.resolve("dir")).doesNotExist();
		}
		finally {
			FtpClients.close(alice);
		}
	}

	@Test
	void aClosedControlConnectionDuringAnUploadLeavesNothingOnTheSftpServer() throws IOException {
		RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE);
		try (Socket data = ftp.passive()) {
			assertThat(ftp.command("STOR /remote/dropped.bin")).startsWith("150");
			OutputStream out = data.getOutputStream();
			out.write(new byte[1024 * 1024]);
			// Wait until the backend's temporary file holds data, so the upload is really
			// under way.
			await().atMost(Duration.ofSeconds(60)).until(() -> !remoteFiles().isEmpty());
			ftp.close();
			try {
				out.write(new byte[512 * 1024]);
			}
			catch (IOException closedByServer) {
				// The server may already have closed the data connection.
			}
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> remoteFiles().isEmpty());
	}

	private static List<String> remoteFiles() throws IOException {
		try (Stream<Path> files = Files.list(remoteRoot)) {
			return files.map(path -> path.getFileName().toString())
				.filter(name -> name.startsWith(StoragePath.RESERVED_PREFIX) || name.equals("dropped.bin"))
				.toList();
		}
	}

}
