package dev.wharf.ftp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.Requirements;
import org.apache.commons.net.ftp.FTPClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wharf's FTP and FTPS server with the clients people use: curl, lftp, rclone and
 * Python's ftplib.
 */
class FtpClientToolsTests {

	@TempDir
	static Path temp;

	static FtpTestServer plain;

	static FtpTestServer secure;

	static Path local;

	@BeforeAll
	static void start() throws IOException {
		plain = FtpTestServer.start(temp.resolve("plain"));
		secure = FtpTestServer.start(temp.resolve("secure"), options -> options.tls = FtpTestServer.TlsMode.EXPLICIT);
		local = Files.createDirectories(temp.resolve("local"));
	}

	@AfterAll
	static void stop() {
		plain.close();
		secure.close();
	}

	static Path file(String name, int size, long seed) throws IOException {
		byte[] bytes = new byte[size];
		new SplittableRandom(seed).nextBytes(bytes);
		return Files.write(local.resolve(name), bytes);
	}

	record Result(int exit, String output) {
	}

	static Result run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).directory(local.toFile()).start();
		process.getOutputStream().close();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new AssertionError("Timed out: " + String.join(" ", command));
		}
		return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
	}

	static String url(FtpTestServer server, String path) {
		return "ftp://127.0.0.1:" + server.port() + "/" + path;
	}

	@Test
	void curlUploadsListsAndDownloadsInEveryMode() throws Exception {
		String curl = Requirements.requireExecutable("curl", "curl").toString();
		Path upload = file("curl.bin", 1_500_000, 1);
		String user = "alice:alice-pw";
		assertThat(run(curl, "-sS", "-u", user, "-T", upload.toString(), url(plain, "curl/up.bin"), "--ftp-create-dirs")
			.exit()).isZero();
		assertThat(plain.dataRoot().resolve("curl/up.bin")).hasSameBinaryContentAs(upload);
		for (List<String> mode : List.of(List.<String>of(), List.of("--disable-epsv"), List.of("-P", "127.0.0.1"),
				List.of("-P", "127.0.0.1", "--disable-eprt"))) {
			Path target = local.resolve("curl-down.bin");
			Files.deleteIfExists(target);
			List<String> command = new ArrayList<>(List.of(curl, "-sS", "-u", user));
			command.addAll(mode);
			command.addAll(List.of("-o", target.toString(), url(plain, "curl/up.bin")));
			Result result = run(command.toArray(String[]::new));
			assertThat(result.exit()).as(mode + ": " + result.output()).isZero();
			assertThat(target).as(mode.toString()).hasSameBinaryContentAs(upload);
		}
		assertThat(run(curl, "-sS", "-u", user, url(plain, "curl/")).output()).contains("up.bin").contains("1500000");
		assertThat(run(curl, "-sS", "-u", user, "-l", url(plain, "curl/")).output().trim()).isEqualTo("up.bin");
		// Resume a partial download, then append.
		Path partial = Files.write(local.resolve("partial.bin"), Files.readAllBytes(upload),
				java.nio.file.StandardOpenOption.CREATE);
		Files.write(partial, java.util.Arrays.copyOf(Files.readAllBytes(upload), 700_000));
		assertThat(run(curl, "-sS", "-u", user, "-C", "-", "-o", partial.toString(), url(plain, "curl/up.bin")).exit())
			.isZero();
		assertThat(partial).hasSameBinaryContentAs(upload);
		Path tail = Files.writeString(local.resolve("tail.txt"), "tail");
		assertThat(run(curl, "-sS", "-u", user, "-T", tail.toString(), "--append", url(plain, "curl/up.bin")).exit())
			.isZero();
		assertThat(Files.size(plain.dataRoot().resolve("curl/up.bin"))).isEqualTo(1_500_004);
		assertThat(run(curl, "-sS", "-u", "alice:wrong", url(plain, "")).exit()).isEqualTo(67);
	}

	@Test
	void curlSpeaksExplicitFtps() throws Exception {
		String curl = Requirements.requireExecutable("curl", "curl").toString();
		String ca = FtpTestServer.certificatePem().toString();
		Path upload = file("tls.bin", 600_000, 2);
		Result put = run(curl, "-sS", "--ssl-reqd", "--cacert", ca, "-u", "alice:alice-pw", "-T", upload.toString(),
				url(secure, "tls.bin"));
		assertThat(put.exit()).as(put.output()).isZero();
		assertThat(secure.dataRoot().resolve("tls.bin")).hasSameBinaryContentAs(upload);
		Path target = local.resolve("tls-down.bin");
		Result get = run(curl, "-sS", "--ssl-reqd", "--cacert", ca, "-u", "alice:alice-pw", "-o", target.toString(),
				url(secure, "tls.bin"));
		assertThat(get.exit()).as(get.output()).isZero();
		assertThat(target).hasSameBinaryContentAs(upload);
	}

	@Test
	void lftpManagesFilesAndMirrorsFolders() throws Exception {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		Path folder = Files.createDirectories(local.resolve("tree/sub"));
		file("tree/a.bin", 100_000, 3);
		file("tree/sub/b.bin", 200_000, 4);
		Files.writeString(folder.resolve("Grüße.txt"), "utf-8");
		String script = String.join("; ", "set net:max-retries 1", "set net:timeout 30", "mirror -R tree mirrored",
				"mkdir made", "mv mirrored/a.bin made/a.bin", "rm mirrored/sub/b.bin", "cls -1 made mirrored/sub",
				"bye");
		Result result = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(plain.port()), "-e", script,
				"127.0.0.1");
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output()).contains("made/a.bin").contains("mirrored/sub/Grüße.txt");
		assertThat(plain.dataRoot().resolve("made/a.bin")).hasSameBinaryContentAs(local.resolve("tree/a.bin"));
		assertThat(plain.dataRoot().resolve("mirrored/sub/Grüße.txt")).hasContent("utf-8");
		assertThat(plain.dataRoot().resolve("mirrored/sub/b.bin")).doesNotExist();
	}

	@Test
	void lftpSpeaksExplicitFtps() throws Exception {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		file("lftp-tls.bin", 300_000, 5);
		String script = String.join("; ", lftpTls(), "set net:max-retries 1", "set net:timeout 30", "put lftp-tls.bin",
				"get lftp-tls.bin -o lftp-back.bin", "bye");
		Result result = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(secure.port()), "-e", script,
				"127.0.0.1");
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(secure.dataRoot().resolve("lftp-tls.bin")).hasSameBinaryContentAs(local.resolve("lftp-tls.bin"));
		assertThat(local.resolve("lftp-back.bin")).hasSameBinaryContentAs(local.resolve("lftp-tls.bin"));
	}

	@Test
	void pythonFtplibUsesFeatMlsdAndFtps() throws Exception {
		String python = Requirements.requireExecutable("python3", "python3").toString();
		String script = String.join("\n", "import ftplib, io, ssl, sys",
				"plain, secure, ca = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]", "f = ftplib.FTP()",
				"f.connect('127.0.0.1', plain, timeout=60)", "print('FEAT', f.sendcmd('FEAT').replace('\\n', '|'))",
				"f.login('alice', 'alice-pw')", "f.mkd('py')",
				"f.storbinary('STOR py/data.bin', io.BytesIO(b'p' * 70000))",
				"print('MLSD', sorted((n, facts['type'], facts.get('size')) for n, facts in f.mlsd('py', ['type', 'size'])))",
				"out = io.BytesIO(); f.retrbinary('RETR py/data.bin', out.write, rest=69990); print('REST', len(out.getvalue()))",
				"f.quit()", "context = ssl.create_default_context(cafile=ca)", "context.check_hostname = False",
				"t = ftplib.FTP_TLS(context=context)", "t.connect('127.0.0.1', secure, timeout=60)",
				"t.login('alice', 'alice-pw')", "t.prot_p()", "t.storbinary('STOR tls.txt', io.BytesIO(b'over tls'))",
				"out = io.BytesIO(); t.retrbinary('RETR tls.txt', out.write); print('TLS', out.getvalue().decode())",
				"t.quit()");
		Result result = run(python, "-c", script, Integer.toString(plain.port()), Integer.toString(secure.port()),
				FtpTestServer.certificatePem().toString());
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output()).contains("FEAT 211-")
			.contains(" MLST ")
			.contains(" UTF8")
			.contains("MLSD [('data.bin', 'file', '70000')]")
			.contains("REST 10")
			.contains("TLS over tls");
		assertThat(secure.dataRoot().resolve("tls.txt")).hasContent("over tls");
	}

	/**
	 * Transfers with nothing to send under {@code PROT P}: the data connection's TLS
	 * handshake completes before the server closes it, so the client gets an empty
	 * listing or file and {@code 226}, not a torn-down handshake and {@code 426}.
	 * Commands that fail before the data connection is used answer with their error and
	 * no {@code 150}.
	 */
	@Test
	void pythonFtpTlsListsEmptyFoldersAndMovesEmptyFiles() throws Exception {
		String python = Requirements.requireExecutable("python3", "python3").toString();
		Files.createDirectories(secure.dataRoot().resolve("py-empty"));
		Files.write(secure.dataRoot().resolve("py-zero.bin"), new byte[0]);
		String script = String.join("\n", "import ftplib, io, ssl, sys",
				"context = ssl.create_default_context(cafile=sys.argv[2])", "context.check_hostname = False",
				"t = ftplib.FTP_TLS(context=context)", "t.connect('127.0.0.1', int(sys.argv[1]), timeout=30)",
				"t.login('alice', 'alice-pw')", "t.prot_p()", "for i in range(3):",
				"    print('MLSD', list(t.mlsd('py-empty')))", "    lines = []",
				"    t.retrlines('LIST py-empty', lines.append)", "    print('LIST', lines)",
				"    print('NLST', t.nlst('py-empty'))", "    out = io.BytesIO()",
				"    t.retrbinary('RETR py-zero.bin', out.write)", "    print('RETR', len(out.getvalue()))",
				"t.storbinary('STOR py-empty/uploaded.bin', io.BytesIO(b''))",
				"for command in ('STOR py-missing/file.bin', 'RETR py-missing.bin'):", "    try:",
				"        if command.startswith('STOR'):", "            t.storbinary(command, io.BytesIO(b'x'))",
				"        else:", "            t.retrbinary(command, io.BytesIO().write)",
				"        print(command, 'succeeded')", "    except ftplib.error_perm as refused:",
				"        print(command, 'refused', str(refused)[:3])", "print('NOOP', t.voidcmd('NOOP')[:3])",
				"t.quit()");
		Result result = run(python, "-c", script, Integer.toString(secure.port()),
				FtpTestServer.certificatePem().toString());
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output().lines()).as(result.output())
			.containsSubsequence("MLSD []", "LIST []", "NLST []", "RETR 0", "MLSD []", "LIST []", "NLST []", "RETR 0",
					"MLSD []", "LIST []", "NLST []", "RETR 0", "STOR py-missing/file.bin refused 550",
					"RETR py-missing.bin refused 550", "NOOP 200");
		assertThat(secure.dataRoot().resolve("py-empty/uploaded.bin")).isEmptyFile();
		assertThat(secure.dataRoot().resolve("py-missing")).doesNotExist();
	}

	@Test
	void curlListsEmptyFoldersAndFetchesEmptyFilesOverFtps() throws Exception {
		String curl = Requirements.requireExecutable("curl", "curl").toString();
		String ca = FtpTestServer.certificatePem().toString();
		Files.createDirectories(secure.dataRoot().resolve("curl-empty"));
		Files.write(secure.dataRoot().resolve("curl-zero.bin"), new byte[0]);
		Path target = local.resolve("curl-zero.bin");
		for (int i = 0; i < 12; i++) {
			Result list = run(curl, "-sS", "--ssl-reqd", "--cacert", ca, "-u", "alice:alice-pw",
					url(secure, "curl-empty/"));
			assertThat(list.exit()).as("listing #" + i + ": " + list.output()).isZero();
			assertThat(list.output()).as("listing #" + i).isEmpty();
			Files.deleteIfExists(target);
			Result get = run(curl, "-sS", "--ssl-reqd", "--cacert", ca, "-u", "alice:alice-pw", "-o", target.toString(),
					url(secure, "curl-zero.bin"));
			assertThat(get.exit()).as("download #" + i + ": " + get.output()).isZero();
			assertThat(target).as("download #" + i).isEmptyFile();
		}
	}

	/**
	 * lftp with {@code ftp:ssl-protect-data}: listing empty folders, and mirroring a tree
	 * with empty folders up (lftp lists each folder it creates), with no retry allowed.
	 */
	@Test
	void lftpListsAndMirrorsEmptyFoldersOverFtps() throws Exception {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		Files.createDirectories(local.resolve("empties/a"));
		Files.createDirectories(local.resolve("empties/b/c"));
		Files.write(local.resolve("empties/b/zero.bin"), new byte[0]);
		file("empties/b/c/d.bin", 10_000, 6);
		Files.createDirectories(secure.dataRoot().resolve("lftp-empty"));
		String script = String.join("; ", lftpTls(), "set net:max-retries 1", "set net:timeout 30", "cls -1 lftp-empty",
				"mirror -R empties empties-up", "cls -1 empties-up/a", "bye");
		Result result = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(secure.port()), "-e", script,
				"127.0.0.1");
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output()).doesNotContain("rror");
		assertThat(secure.dataRoot().resolve("empties-up/a")).isEmptyDirectory();
		assertThat(secure.dataRoot().resolve("empties-up/b/zero.bin")).isEmptyFile();
		assertThat(secure.dataRoot().resolve("empties-up/b/c/d.bin"))
			.hasSameBinaryContentAs(local.resolve("empties/b/c/d.bin"));
	}

	@Test
	void rcloneListsOverFtps() throws Exception {
		String rclone = Requirements.requireExecutable("rclone", "rclone").toString();
		Files.createDirectories(secure.dataRoot().resolve("rclone/empty"));
		Files.writeString(secure.dataRoot().resolve("rclone/file.txt"), "rclone");
		// rclone's FTP backend takes no CA file: it is told not to check the test
		// server's self-signed certificate.
		List<String> remote = rclone(rclone, secure, "--ftp-explicit-tls", "--ftp-no-check-certificate");
		Result empty = run(command(remote, "lsf", ":ftp:rclone/empty"));
		assertThat(empty.exit()).as(empty.output()).isZero();
		assertThat(empty.output()).isEmpty();
		Result listed = run(command(remote, "lsf", ":ftp:rclone"));
		assertThat(listed.exit()).as(listed.output()).isZero();
		assertThat(listed.output().lines()).containsExactlyInAnyOrder("empty/", "file.txt");
	}

	/**
	 * lftp's {@code mirror -R} keeps the files' times (it sends {@code MFMT} after each
	 * upload), so the server shows the originals and a second mirror transfers nothing;
	 * without times lftp fell back to sizes and sent again.
	 */
	@Test
	void lftpMirrorKeepsModificationTimes() throws Exception {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		Instant first = Instant.parse("2001-02-03T04:05:06Z");
		Instant second = Instant.parse("2011-12-13T14:15:16Z");
		Files.createDirectories(local.resolve("timed/sub"));
		Files.setLastModifiedTime(file("timed/a.bin", 1_000, 7), FileTime.from(first));
		Files.setLastModifiedTime(file("timed/sub/b.bin", 2_000, 8), FileTime.from(second));
		String script = String.join("; ", "set net:max-retries 1", "set net:timeout 30", "mirror -R -v timed timed-up",
				"bye");
		Result result = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(plain.port()), "-e", script,
				"127.0.0.1");
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output()).contains("Transferring file");
		assertThat(Files.getLastModifiedTime(plain.dataRoot().resolve("timed-up/a.bin")).toInstant()).isEqualTo(first);
		assertThat(Files.getLastModifiedTime(plain.dataRoot().resolve("timed-up/sub/b.bin")).toInstant())
			.isEqualTo(second);
		FTPClient client = FtpClients.login(plain, FtpTestServer.ALICE);
		try {
			assertThat(client.mdtmInstant("timed-up/a.bin")).isEqualTo(first);
			assertThat(client.mlistFile("timed-up/sub/b.bin").getTimestamp().toInstant()).isEqualTo(second);
		}
		finally {
			FtpClients.close(client);
		}
		Result again = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(plain.port()), "-e", script,
				"127.0.0.1");
		assertThat(again.exit()).as(again.output()).isZero();
		assertThat(again.output()).doesNotContain("Transferring file");
	}

	/**
	 * lftp's {@code mirror -R} sends {@code SITE CHMOD} after each upload unless told
	 * {@code --no-perms}, and counts a refusal as a failed transfer (exit 1); Wharf
	 * answers {@code 202}, as the mounts keep no permissions.
	 */
	@Test
	void lftpMirrorWithPermissionsSucceeds() throws Exception {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		Files.createDirectories(local.resolve("perms/sub"));
		Files.setPosixFilePermissions(file("perms/run.sh", 100, 9), PosixFilePermissions.fromString("rwxr-x---"));
		Files.setPosixFilePermissions(file("perms/sub/private.bin", 200, 10),
				PosixFilePermissions.fromString("rw-------"));
		String script = String.join("; ", "set net:max-retries 1", "set net:timeout 30", "debug 5",
				"mirror -R -v perms perms-up", "bye");
		Result result = run(lftp, "-u", "alice,alice-pw", "-p", Integer.toString(plain.port()), "-e", script,
				"127.0.0.1");
		assertThat(result.exit()).as(result.output()).isZero();
		assertThat(result.output()).contains("SITE CHMOD").doesNotContain("Access failed");
		assertThat(plain.dataRoot().resolve("perms-up/run.sh")).hasSameBinaryContentAs(local.resolve("perms/run.sh"));
		assertThat(plain.dataRoot().resolve("perms-up/sub/private.bin"))
			.hasSameBinaryContentAs(local.resolve("perms/sub/private.bin"));
	}

	/**
	 * rclone sets the times of what it copies ({@code MFMT}), and reads them back from
	 * the listing.
	 */
	@Test
	void rcloneCopyKeepsModificationTimes() throws Exception {
		String rclone = Requirements.requireExecutable("rclone", "rclone").toString();
		Instant time = Instant.parse("2005-06-07T08:09:10Z");
		Files.createDirectories(local.resolve("rclone-timed"));
		Files.setLastModifiedTime(file("rclone-timed/c.bin", 3_000, 9), FileTime.from(time));
		List<String> remote = rclone(rclone, plain);
		Result copied = run(command(remote, "copy", "rclone-timed", ":ftp:rclone-timed"));
		assertThat(copied.exit()).as(copied.output()).isZero();
		assertThat(plain.dataRoot().resolve("rclone-timed/c.bin"))
			.hasSameBinaryContentAs(local.resolve("rclone-timed/c.bin"));
		assertThat(Files.getLastModifiedTime(plain.dataRoot().resolve("rclone-timed/c.bin")).toInstant())
			.isEqualTo(time);
		Result listed = run(command(remote, "lsl", ":ftp:rclone-timed"));
		assertThat(listed.exit()).as(listed.output()).isZero();
		assertThat(listed.output()).contains("2005-06-07 08:09:10").contains("c.bin");
	}

	/** lftp settings for FTPS with {@code PROT P}, trusting the test certificate. */
	static String lftpTls() throws IOException, InterruptedException {
		return String.join("; ", "set ssl:ca-file " + FtpTestServer.certificatePem(), "set ssl:check-hostname no",
				"set ftp:ssl-force yes", "set ftp:ssl-protect-data yes");
	}

	/**
	 * An rclone command line for an on-the-fly {@code :ftp:} remote on a test server,
	 * without a config file.
	 */
	static List<String> rclone(String rclone, FtpTestServer server, String... options)
			throws IOException, InterruptedException {
		Result obscured = run(rclone, "obscure", FtpTestServer.password(FtpTestServer.ALICE));
		assertThat(obscured.exit()).as(obscured.output()).isZero();
		List<String> command = new ArrayList<>(
				List.of(rclone, "--config", Files.writeString(local.resolve("rclone.conf"), "").toString(),
						"--ftp-host", "127.0.0.1", "--ftp-port", Integer.toString(server.port()), "--ftp-user",
						FtpTestServer.ALICE, "--ftp-pass", obscured.output().trim(), "--retries", "1",
						"--low-level-retries", "1", "--contimeout", "10s", "--timeout", "30s"));
		command.addAll(List.of(options));
		return command;
	}

	static String[] command(List<String> base, String... arguments) {
		List<String> command = new ArrayList<>(base);
		command.addAll(List.of(arguments));
		return command.toArray(String[]::new);
	}

}
