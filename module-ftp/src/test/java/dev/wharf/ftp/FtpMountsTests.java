package dev.wharf.ftp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;

import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several FTP mounts: {@code /} holds one folder per mount the user may read; a
 * {@code memory} mount works like a local one (streamed instead of zero-copy); a mount
 * that cannot append refuses {@code APPE} and resumed uploads clearly, and one that
 * cannot keep modification times refuses {@code MFMT}.
 */
class FtpMountsTests {

	@TempDir
	static Path temp;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws IOException {
		server = FtpTestServer.start(temp, options -> {
			options.scratch = true;
			options.scratchLikeObjectStore = true;
		});
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void theRootListsTheMountsTheUserMayRead() throws IOException {
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		FTPClient bob = FtpClients.login(server, FtpTestServer.BOB);
		try {
			assertThat(alice.listNames("/")).containsExactly("data", "scratch");
			FTPFile[] mounts = alice.mlistDir("/");
			assertThat(mounts).extracting(FTPFile::getName).containsExactly("data", "scratch");
			assertThat(mounts).allMatch(FTPFile::isDirectory);
			assertThat(alice.listFiles("/")).extracting(FTPFile::getName).containsExactly("data", "scratch");
			assertThat(bob.listNames("/")).containsExactly("data");
			assertThat(bob.changeWorkingDirectory("/scratch")).isFalse();
			assertThat(bob.getReplyCode()).isEqualTo(550);
		}
		finally {
			FtpClients.close(alice);
			FtpClients.close(bob);
		}
	}

	@Test
	void theRootItselfCannotBeChanged() throws IOException {
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			assertThat(alice.storeFile("/top.txt", new ByteArrayInputStream(new byte[] { 1 }))).isFalse();
			assertThat(alice.getReplyCode()).isEqualTo(550);
			assertThat(alice.makeDirectory("/newmount")).isFalse();
			assertThat(alice.removeDirectory("/data")).isFalse();
			assertThat(alice.rename("/scratch", "/other")).isFalse();
			assertThat(alice.deleteFile("/data")).isFalse();
		}
		finally {
			FtpClients.close(alice);
		}
	}

	@Test
	void aMemoryMountStoresAndServesFiles() throws IOException {
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			byte[] content = new byte[1_000_000];
			Arrays.fill(content, (byte) 'm');
			assertThat(alice.changeWorkingDirectory("/scratch")).isTrue();
			assertThat(alice.makeDirectory("in-memory")).isTrue();
			assertThat(alice.storeFile("in-memory/m.bin", new ByteArrayInputStream(content))).isTrue();
			assertThat(alice.printWorkingDirectory()).isEqualTo("/scratch");
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("/scratch/in-memory/m.bin", out)).isTrue();
			assertThat(out.toByteArray()).isEqualTo(content);
			assertThat(alice.mlistFile("/scratch/in-memory/m.bin").getSize()).isEqualTo(1_000_000);
			// Moving between mounts would need a copy: refused, with a hint.
			assertThat(alice.rename("/scratch/in-memory/m.bin", "/data/m.bin")).isFalse();
			assertThat(alice.getReplyString()).startsWith("553");
			assertThat(server.dataRoot().resolve("m.bin")).doesNotExist();
			assertThat(alice.rename("/scratch/in-memory/m.bin", "/scratch/renamed.bin")).isTrue();
		}
		finally {
			FtpClients.close(alice);
		}
	}

	@Test
	void settingTimesNeedsAMountThatKeepsThem() throws IOException {
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			assertThat(alice.storeFile("/scratch/timeless.txt", new ByteArrayInputStream(new byte[] { 1 }))).isTrue();
			Instant before = alice.mdtmInstant("/scratch/timeless.txt");
			assertThat(alice.setModificationTime("/scratch/timeless.txt", "20010203040506")).isFalse();
			assertThat(alice.getReplyString()).startsWith("504").contains("does not keep modification times");
			assertThat(alice.sendSiteCommand("UTIME 20010203040506 /scratch/timeless.txt")).isFalse();
			assertThat(alice.getReplyCode()).isEqualTo(504);
			assertThat(alice.mdtmInstant("/scratch/timeless.txt")).isEqualTo(before);
			// The local mount keeps them, so FEAT offers MFMT.
			assertThat(alice.storeFile("/data/timed.txt", new ByteArrayInputStream(new byte[] { 1 }))).isTrue();
			assertThat(alice.setModificationTime("/data/timed.txt", "20010203040506")).isTrue();
			assertThat(alice.mdtmInstant("/data/timed.txt")).isEqualTo(Instant.parse("2001-02-03T04:05:06Z"));
			assertThat(alice.features()).isTrue();
			assertThat(alice.getReplyStrings()).contains(" MFMT");
		}
		finally {
			FtpClients.close(alice);
		}
	}

	@Test
	void appendingAndResumingNeedAMountThatCanAppend() throws IOException {
		FTPClient alice = FtpClients.login(server, FtpTestServer.ALICE);
		try {
			byte[] first = "first".getBytes(StandardCharsets.UTF_8);
			assertThat(alice.storeFile("/scratch/log.txt", new ByteArrayInputStream(first))).isTrue();
			assertThat(alice.appendFile("/scratch/log.txt", new ByteArrayInputStream(first))).isFalse();
			assertThat(alice.getReplyString()).startsWith("504").contains("cannot append");
			alice.setRestartOffset(first.length);
			assertThat(alice.storeFile("/scratch/log.txt", new ByteArrayInputStream(first))).isFalse();
			assertThat(alice.getReplyCode()).isEqualTo(504);
			alice.setRestartOffset(0);
			// Reading from an offset works everywhere.
			alice.setRestartOffset(2);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			assertThat(alice.retrieveFile("/scratch/log.txt", out)).isTrue();
			assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("rst");
			// The local mount can append.
			alice.setRestartOffset(0);
			assertThat(alice.storeFile("/data/log.txt", new ByteArrayInputStream(first))).isTrue();
			assertThat(alice.appendFile("/data/log.txt", new ByteArrayInputStream(first))).isTrue();
			assertThat(server.dataRoot().resolve("log.txt")).hasContent("firstfirst");
		}
		finally {
			FtpClients.close(alice);
		}
	}

}
