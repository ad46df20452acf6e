package dev.wharf.ftp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import dev.wharf.core.storage.StorageTestSupport;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPFile;
import org.apache.commons.net.ftp.FTPReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The FTP commands with a real client (Apache Commons Net) against a real server on a
 * {@code local} mount.
 */
class FtpFileCommandsTests {

	@TempDir
	static Path temp;

	static FtpTestServer server;

	FTPClient alice;

	@BeforeAll
	static void start() throws IOException {
		server = FtpTestServer.start(temp);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@BeforeEach
	void login() throws IOException {
		this.alice = FtpClients.login(server, FtpTestServer.ALICE);
	}

	@AfterEach
	void logout() {
		FtpClients.close(this.alice);
	}

	static byte[] random(int size, long seed) {
		return StorageTestSupport.randomBytes(seed, 0, size);
	}

	static byte[] download(FTPClient client, String path) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(client.retrieveFile(path, out)).as(client.getReplyString()).isTrue();
		return out.toByteArray();
	}

	static void upload(FTPClient client, String path, byte[] content) throws IOException {
		assertThat(client.storeFile(path, new ByteArrayInputStream(content))).as(client.getReplyString()).isTrue();
	}

	@Test
	void uploadsAndDownloadsInPassiveActiveAndExtendedPassiveMode() throws IOException {
		byte[] content = random(3 * 1024 * 1024 + 17, 1);
		upload(this.alice, "passive.bin", content);
		assertThat(Files.readAllBytes(server.dataRoot().resolve("passive.bin"))).isEqualTo(content);
		assertThat(download(this.alice, "passive.bin")).isEqualTo(content);

		this.alice.enterLocalActiveMode();
		this.alice.setActiveExternalIPAddress("127.0.0.1");
		upload(this.alice, "active.bin", content);
		assertThat(download(this.alice, "active.bin")).isEqualTo(content);
		assertThat(this.alice.listNames()).contains("active.bin", "passive.bin");

		this.alice.enterLocalPassiveMode();
		this.alice.setUseEPSVwithIPv4(true);
		assertThat(download(this.alice, "active.bin")).isEqualTo(content);
		assertThat(this.alice.getReplyString()).startsWith("226");
	}

	@Test
	void emptyAndTinyFilesKeepTheirContent() throws IOException {
		upload(this.alice, "empty.txt", new byte[0]);
		upload(this.alice, "one.txt", new byte[] { 42 });
		assertThat(server.dataRoot().resolve("empty.txt")).isEmptyFile();
		assertThat(download(this.alice, "one.txt")).containsExactly(42);
		assertThat(download(this.alice, "empty.txt")).isEmpty();
	}

	@Test
	void listsInEveryFormat() throws IOException {
		assertThat(this.alice.makeDirectory("listing")).isTrue();
		upload(this.alice, "listing/a.txt", "hello".getBytes(StandardCharsets.UTF_8));
		assertThat(this.alice.makeDirectory("listing/sub")).isTrue();

		FTPFile[] list = this.alice.listFiles("listing");
		assertThat(list).extracting(FTPFile::getName).containsExactlyInAnyOrder("a.txt", "sub");
		FTPFile file = Arrays.stream(list).filter(FTPFile::isFile).findFirst().orElseThrow();
		assertThat(file.getSize()).isEqualTo(5);
		assertThat(file.hasPermission(FTPFile.USER_ACCESS, FTPFile.WRITE_PERMISSION)).isTrue();

		FTPFile[] mlsd = this.alice.mlistDir("listing");
		assertThat(mlsd).extracting(FTPFile::getName).containsExactlyInAnyOrder("a.txt", "sub");
		FTPFile mlsdFile = Arrays.stream(mlsd).filter(FTPFile::isFile).findFirst().orElseThrow();
		assertThat(mlsdFile.getSize()).isEqualTo(5);
		assertThat(mlsdFile.getTimestampInstant()).isBetween(Instant.now().minusSeconds(300),
				Instant.now().plusSeconds(5));
		assertThat(Arrays.stream(mlsd).filter(FTPFile::isDirectory)).hasSize(1);

		assertThat(this.alice.listNames("listing")).containsExactlyInAnyOrder("a.txt", "sub");
		assertThat(this.alice.mlistFile("listing/a.txt").getSize()).isEqualTo(5);
		assertThat(this.alice.listFiles("listing/a.txt")).extracting(FTPFile::getName).containsExactly("a.txt");
		assertThat(this.alice.sendCommand("STAT", "listing")).isEqualTo(213);
		assertThat(this.alice.getReplyString()).contains("a.txt").contains("sub");

		assertThat(this.alice.sendCommand("OPTS", "MLST Size;")).isEqualTo(200);
		assertThat(this.alice.sendCommand("MLST", "listing/a.txt")).isEqualTo(250);
		assertThat(this.alice.getReplyString()).contains(" Size=5; /listing/a.txt").doesNotContain("Type=");

		assertThat(this.alice.mlistDir("missing")).isEmpty();
		assertThat(this.alice.getReplyCode()).isEqualTo(550);
		assertThat(this.alice.mlistDir("listing/a.txt")).isEmpty();
		assertThat(this.alice.getReplyCode()).isEqualTo(501);
		assertThat(this.alice.sendCommand("MLSD", "listing")).isEqualTo(503);
	}

	@Test
	void filesAndFoldersCanBeManaged() throws IOException {
		assertThat(this.alice.makeDirectory("manage")).isTrue();
		assertThat(this.alice.getReplyString()).startsWith("257 \"/manage\"");
		assertThat(this.alice.changeWorkingDirectory("manage")).isTrue();
		assertThat(this.alice.printWorkingDirectory()).isEqualTo("/manage");
		upload(this.alice, "f.txt", "12345".getBytes(StandardCharsets.UTF_8));
		assertThat(this.alice.sendCommand("SIZE", "f.txt")).isEqualTo(213);
		assertThat(this.alice.getReplyString().trim()).isEqualTo("213 5");
		assertThat(this.alice.getModificationTime("f.txt")).matches("\\d{14}");

		assertThat(this.alice.rename("f.txt", "g.txt")).as(this.alice.getReplyString()).isTrue();
		assertThat(server.dataRoot().resolve("manage/g.txt")).hasContent("12345");
		assertThat(server.dataRoot().resolve("manage/f.txt")).doesNotExist();
		assertThat(this.alice.sendCommand("RNTO", "h.txt")).isEqualTo(503);

		assertThat(this.alice.removeDirectory("g.txt")).isFalse();
		assertThat(this.alice.changeToParentDirectory()).isTrue();
		assertThat(this.alice.printWorkingDirectory()).isEqualTo("/");
		assertThat(this.alice.removeDirectory("manage")).isFalse();
		assertThat(this.alice.getReplyCode()).isEqualTo(550);
		assertThat(this.alice.deleteFile("manage")).isFalse();
		assertThat(this.alice.deleteFile("manage/g.txt")).isTrue();
		assertThat(this.alice.removeDirectory("manage")).isTrue();
		assertThat(server.dataRoot().resolve("manage")).doesNotExist();
		assertThat(this.alice.deleteFile("manage/g.txt")).isFalse();
		assertThat(this.alice.getReplyCode()).isEqualTo(550);
		assertThat(this.alice.changeWorkingDirectory("nowhere")).isFalse();
		assertThat(this.alice.changeToParentDirectory()).isFalse();
	}

	@Test
	void appendAndRestartWorkWhereTheMountCanAppend() throws IOException {
		upload(this.alice, "resume.bin", "abc".getBytes(StandardCharsets.UTF_8));
		assertThat(
				this.alice.appendFile("resume.bin", new ByteArrayInputStream("def".getBytes(StandardCharsets.UTF_8))))
			.isTrue();
		this.alice.setRestartOffset(6);
		assertThat(this.alice.storeFile("resume.bin", new ByteArrayInputStream("ghi".getBytes(StandardCharsets.UTF_8))))
			.as(this.alice.getReplyString())
			.isTrue();
		assertThat(server.dataRoot().resolve("resume.bin")).hasContent("abcdefghi");

		this.alice.setRestartOffset(4);
		assertThat(download(this.alice, "resume.bin")).asString(StandardCharsets.UTF_8).isEqualTo("efghi");
		this.alice.setRestartOffset(0);

		// A restart point that is not the end of the file cannot be honoured without
		// truncating: refused.
		this.alice.setRestartOffset(2);
		assertThat(this.alice.storeFile("resume.bin", new ByteArrayInputStream("xx".getBytes(StandardCharsets.UTF_8))))
			.isFalse();
		assertThat(this.alice.getReplyCode()).isEqualTo(554);
		this.alice.setRestartOffset(100);
		assertThat(this.alice.retrieveFile("resume.bin", new ByteArrayOutputStream())).isFalse();
		assertThat(this.alice.getReplyCode()).isEqualTo(554);
		this.alice.setRestartOffset(0);
		assertThat(server.dataRoot().resolve("resume.bin")).hasContent("abcdefghi");
	}

	@Test
	void utf8NamesWorkAndAreStoredInNfc() throws IOException {
		String decomposed = Normalizer.normalize("Grüße – 日本 café.txt", Normalizer.Form.NFD);
		String composed = Normalizer.normalize(decomposed, Normalizer.Form.NFC);
		assertThat(this.alice.sendCommand("OPTS", "UTF8 ON")).isEqualTo(200);
		upload(this.alice, decomposed, "ü".getBytes(StandardCharsets.UTF_8));
		assertThat(server.dataRoot().resolve(composed)).exists();
		assertThat(this.alice.listNames()).contains(composed);
		assertThat(download(this.alice, composed)).asString(StandardCharsets.UTF_8).isEqualTo("ü");
		assertThat(this.alice.makeDirectory("Ordner \"quoted\"")).isTrue();
		assertThat(this.alice.getReplyString()).startsWith("257 \"/Ordner \"\"quoted\"\"\" created");
	}

	@Test
	void aReadOnlyUserCanReadButNotChange() throws IOException {
		upload(this.alice, "shared.txt", "shared".getBytes(StandardCharsets.UTF_8));
		FTPClient bob = FtpClients.login(server, FtpTestServer.BOB);
		try {
			assertThat(download(bob, "shared.txt")).asString(StandardCharsets.UTF_8).isEqualTo("shared");
			assertThat(bob.storeFile("bob.txt", new ByteArrayInputStream(new byte[] { 1 }))).isFalse();
			assertThat(bob.getReplyCode()).isEqualTo(550);
			assertThat(bob.deleteFile("shared.txt")).isFalse();
			assertThat(bob.makeDirectory("bobdir")).isFalse();
			assertThat(bob.rename("shared.txt", "mine.txt")).isFalse();
			assertThat(bob.appendFile("shared.txt", new ByteArrayInputStream(new byte[] { 1 }))).isFalse();
			assertThat(bob.mlistFile("shared.txt").hasPermission(FTPFile.USER_ACCESS, FTPFile.WRITE_PERMISSION))
				.isFalse();
		}
		finally {
			FtpClients.close(bob);
		}
		assertThat(server.dataRoot().resolve("shared.txt")).hasContent("shared");
		assertThat(server.dataRoot().resolve("bob.txt")).doesNotExist();
		assertThat(server.dataRoot().resolve("bobdir")).doesNotExist();
	}

	@Test
	void loginsNeedTheRightPasswordAndAnFtpMount() throws IOException {
		FTPClient client = FtpClients.connect(server);
		try {
			assertThat(client.login(FtpTestServer.BOB, "wrong")).isFalse();
			assertThat(client.getReplyCode()).isEqualTo(530);
			assertThat(client.login("anonymous", "guest@example.com")).isFalse();
			assertThat(client.getReplyCode()).isEqualTo(530);
		}
		finally {
			FtpClients.close(client);
		}
		FTPClient carol = FtpClients.connect(server);
		try {
			assertThat(carol.login(FtpTestServer.CAROL, FtpTestServer.password(FtpTestServer.CAROL))).isFalse();
			assertThat(carol.getReplyString()).startsWith("530").contains("no FTP access");
		}
		finally {
			FtpClients.close(carol);
		}
	}

	/**
	 * {@code MFMT} and both forms of {@code SITE UTIME} set times that {@code MDTM},
	 * {@code MLST} and the disk then show; malformed times, missing files and read-only
	 * users change nothing.
	 */
	@Test
	void mfmtAndSiteUtimeSetModificationTimes() throws IOException {
		Path file = server.dataRoot().resolve("dated.txt");
		upload(this.alice, "dated.txt", random(10, 1));
		Instant time = Instant.parse("2001-02-03T04:05:06Z");
		assertThat(this.alice.setModificationTime("dated.txt", "20010203040506")).as(this.alice.getReplyString())
			.isTrue();
		assertThat(this.alice.getReplyString()).startsWith("213 Modify=20010203040506; /dated.txt");
		assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(time);
		assertThat(this.alice.mdtmInstant("dated.txt")).isEqualTo(time);
		assertThat(this.alice.mlistFile("dated.txt").getTimestamp().toInstant()).isEqualTo(time);
		assertThat(file).hasSize(10);
		// Fractions of a second are kept where the disk keeps them.
		assertThat(this.alice.setModificationTime("dated.txt", "20010203040506.25")).isTrue();
		Instant withFraction = time.plusMillis(250);
		assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(withFraction);
		// Both forms of SITE UTIME that lftp sends, on a folder whose name has a space.
		assertThat(this.alice.makeDirectory("dated folder")).isTrue();
		Path folder = server.dataRoot().resolve("dated folder");
		assertThat(this.alice.sendSiteCommand("UTIME 20020304050607 dated folder")).as(this.alice.getReplyString())
			.isTrue();
		assertThat(Files.getLastModifiedTime(folder).toInstant()).isEqualTo(Instant.parse("2002-03-04T05:06:07Z"));
		assertThat(this.alice.sendSiteCommand("UTIME dated folder 20030101000000 20030405060708 20030101000000 UTC"))
			.as(this.alice.getReplyString())
			.isTrue();
		assertThat(Files.getLastModifiedTime(folder).toInstant()).isEqualTo(Instant.parse("2003-04-05T06:07:08Z"));
		// Bad input gets a clear refusal and changes nothing.
		for (String bad : List.of("20010231000000 dated.txt", "20011303040506 dated.txt", "2001 dated.txt",
				"20010203040506", "20010203040506 ", "yesterday dated.txt", "20010203040506x dated.txt")) {
			assertThat(this.alice.sendCommand("MFMT", bad)).as(bad).isEqualTo(501);
		}
		assertThat(this.alice.sendSiteCommand("UTIME 20010203040506")).isFalse();
		assertThat(this.alice.getReplyCode()).isEqualTo(501);
		assertThat(this.alice.sendCommand("MFMT", "20010203040506 missing.txt")).isEqualTo(550);
		assertThat(server.dataRoot().resolve("missing.txt")).doesNotExist();
		assertThat(this.alice.sendCommand("MFMT", "20010203040506 ../outside.txt")).isEqualTo(553);
		assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(withFraction);
		// Setting a time is a change: a read-only user may not.
		FTPClient bob = FtpClients.login(server, FtpTestServer.BOB);
		try {
			assertThat(bob.setModificationTime("dated.txt", "20200101000000")).isFalse();
			assertThat(bob.getReplyCode()).isEqualTo(550);
			assertThat(bob.sendSiteCommand("UTIME 20200101000000 dated.txt")).isFalse();
			assertThat(bob.getReplyCode()).isEqualTo(550);
		}
		finally {
			FtpClients.close(bob);
		}
		assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(withFraction);
	}

	@Test
	void featuresAreAnnouncedBeforeLoginAndUnsupportedCommandsAreRefused() throws IOException {
		FTPClient client = FtpClients.connect(server);
		try {
			assertThat(client.features()).isTrue();
			assertThat(client.getReplyStrings())
				.contains(" EPSV", " EPRT", " MLST Type*;Size*;Modify*;Perm*;", " REST STREAM", " SIZE", " MDTM",
						" MFMT", " UTF8", " TVFS")
				.noneMatch(line -> line.contains("AUTH") || line.contains("PROT") || line.contains("MD5")
						|| line.contains("MODE Z") || line.contains("LANG"));
			assertThat(client.sendCommand("SYST")).isEqualTo(215);
			assertThat(client.getReplyString()).contains("UNIX Type: L8");
			assertThat(client.sendCommand("PWD")).isEqualTo(530);
			assertThat(client.sendCommand("AUTH", "TLS")).isEqualTo(431);
		}
		finally {
			FtpClients.close(client);
		}
		assertThat(this.alice.sendCommand("SITE", "CHMOD 777 x")).isEqualTo(202);
		assertThat(this.alice.sendCommand("SITE", "chmod 644 x")).isEqualTo(202);
		assertThat(this.alice.sendCommand("SITE", "EXEC x")).isEqualTo(502);
		assertThat(this.alice.sendCommand("MD5", "x")).isEqualTo(502);
		assertThat(this.alice.sendCommand("MODE", "Z")).isEqualTo(504);
		assertThat(this.alice.sendCommand("MODE", "S")).isEqualTo(200);
		assertThat(this.alice.sendCommand("ALLO", "100")).isEqualTo(202);
		assertThat(this.alice.sendCommand("HELP")).isEqualTo(214);
		assertThat(FTPReply.isPositiveCompletion(this.alice.sendCommand("NOOP"))).isTrue();
	}

}
