package dev.wharf.ftp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.storage.s3.S3StorageProvider;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPFile;
import org.apache.commons.net.ftp.FTPReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import software.amazon.awssdk.services.s3.model.S3Object;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * FTP in front of an {@code s3} mount on a real S3 server (S3Proxy as a separate
 * process): every command goes through the storage SPI to the bucket, uploads larger than
 * a part are multipart uploads, S3's missing appends are answered with 504, and an
 * interrupted upload leaves neither an object nor an open multipart upload behind.
 */
class FtpOverS3Tests {

	private static final String BUCKET = "ftp-files";

	private static final int MB = 1024 * 1024;

	@TempDir
	static Path temp;

	static S3ProxyProcess s3;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.TRANSIENT, temp.resolve("s3"));
		s3.createBucket(BUCKET);
		Map<String, String> source = new HashMap<>(s3.mountProperties("remote", BUCKET));
		source.put(MountDefinition.PREFIX + ".remote.part-size", "5MB");
		MountDefinition definition = new MountDefinition("remote", S3StorageProvider.TYPE,
				new Binder(new MapConfigurationPropertySource(source)));
		server = FtpTestServer.start(temp, options -> options.remote = new S3StorageProvider().create(definition));
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
		if (s3 != null) {
			s3.close();
		}
	}

	private static byte[] object(String key) {
		return s3.client().getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
	}

	private static List<String> keys() {
		return s3.client().listObjectsV2(b -> b.bucket(BUCKET)).contents().stream().map(S3Object::key).toList();
	}

	@Test
	void filesAreManagedAsObjectsInTheBucket() throws IOException {
		byte[] content = StorageTestSupport.randomBytes(7, 0, 12 * MB + 17);
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			assertThat(alice.listNames("/")).contains("data", "remote");
			assertThat(alice.changeWorkingDirectory("/remote")).isTrue();
			assertThat(alice.makeDirectory("dir")).isTrue();
			assertThat(alice.storeFile("dir/big.bin", new ByteArrayInputStream(content))).isTrue();
			assertThat(object("dir/big.bin")).isEqualTo(content);
			assertThat(s3.client().headObject(b -> b.bucket(BUCKET).key("dir/big.bin")).eTag()).endsWith("-3\"");

			FTPFile[] listed = alice.mlistDir("dir");
			assertThat(listed).extracting(FTPFile::getName).containsExactly("big.bin");
			assertThat(listed[0].getSize()).isEqualTo(content.length);
			assertThat(alice.listFiles("dir")).extracting(FTPFile::getName).containsExactly("big.bin");
			assertThat(alice.getSize("dir/big.bin")).isEqualTo(Integer.toString(content.length));
			assertThat(alice.getModificationTime("dir/big.bin")).matches("\\d{14}(\\.\\d+)?");

			ByteArrayOutputStream whole = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("dir/big.bin", whole)).isTrue();
			assertThat(whole.toByteArray()).isEqualTo(content);
			alice.setRestartOffset(10_000_000);
			ByteArrayOutputStream tail = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("dir/big.bin", tail)).isTrue();
			assertThat(tail.toByteArray()).isEqualTo(Arrays.copyOfRange(content, 10_000_000, content.length));

			// S3 cannot append: APPE and a resumed STOR are refused with 504 and change
			// nothing.
			assertThat(alice.appendFile("dir/big.bin", new ByteArrayInputStream(new byte[] { 1 }))).isFalse();
			assertThat(alice.getReplyCode()).isEqualTo(504);
			alice.setRestartOffset(content.length);
			assertThat(alice.storeFile("dir/big.bin", new ByteArrayInputStream(new byte[] { 1 }))).isFalse();
			assertThat(alice.getReplyCode()).isEqualTo(504);
			alice.setRestartOffset(0);
			assertThat(object("dir/big.bin")).isEqualTo(content);

			assertThat(alice.rename("dir/big.bin", "dir/moved.bin")).isTrue();
			assertThat(keys()).contains("dir/moved.bin").doesNotContain("dir/big.bin");
			assertThat(alice.deleteFile("dir/moved.bin")).isTrue();
			assertThat(alice.removeDirectory("dir")).isTrue();
			assertThat(keys()).noneMatch(key -> key.startsWith("dir"));
			assertThat(FTPReply.isPositiveCompletion(alice.noop())).isTrue();
		}
		finally {
			FtpClients.close(alice);
		}
	}

	@Test
	void aClosedControlConnectionDuringAnUploadLeavesNoObjectAndNoOpenUpload() throws IOException {
		RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE);
		try (Socket data = ftp.passive()) {
			assertThat(ftp.command("STOR /remote/dropped.bin")).startsWith("150");
			OutputStream out = data.getOutputStream();
			out.write(new byte[6 * MB]);
			// Wait until the multipart upload exists, so the upload is really under way.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> !s3.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads().isEmpty());
			ftp.close();
			try {
				out.write(new byte[512 * 1024]);
			}
			catch (IOException closedByServer) {
				// The server may already have closed the data connection.
			}
		}
		await().atMost(Duration.ofSeconds(60))
			.until(() -> s3.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads().isEmpty());
		assertThat(keys()).doesNotContain("dropped.bin");
	}

}
