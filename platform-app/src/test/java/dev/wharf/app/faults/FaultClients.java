package dev.wharf.app.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.wharf.core.security.PasswordHashing;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.springframework.test.context.DynamicPropertyRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The account and the clients the fault tests use: one user with every role, an API token for the file
 * manager, HTTP Basic for the build cache, a Commons Net FTP client.
 */
final class FaultClients {

	static final String USER = "ops";

	static final String PASSWORD = "faults-password";

	private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

	private FaultClients() {
	}

	/** Registers the user (admin, so rw on every mount, and both cache roles) and free FTP ports. */
	static void register(DynamicPropertyRegistry registry) {
		String hash = PasswordHashing.hash(PASSWORD);
		registry.add("wharf.security.users[0].name", () -> USER);
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "admin,user,cache-reader,cache-writer");
		registry.add("wharf.ftp.port", () -> "0");
		registry.add("wharf.ftp.passive-ports", () -> "0");
	}

	/** {@code Authorization} for the file manager: a token minted with the password. */
	static String bearer(int port) throws IOException {
		RawHttp.Response minted = RawHttp.exchange(port, "POST", "/api/tokens?name=faults", basic(), null);
		Matcher token = TOKEN.matcher(minted.text());
		assertThat(token.find()).as(minted.text()).isTrue();
		return "Bearer " + token.group(1);
	}

	/** {@code Authorization} for the build cache. */
	static String basic() {
		return RawHttp.basic(USER, PASSWORD);
	}

	/** A logged-in FTP client in passive binary mode. */
	static FTPClient ftp(int port) throws IOException {
		FTPClient ftp = new FTPClient();
		ftp.setConnectTimeout(30_000);
		ftp.setDefaultTimeout(60_000);
		ftp.setDataTimeout(java.time.Duration.ofSeconds(60));
		ftp.connect(InetAddress.getLoopbackAddress(), port);
		assertThat(ftp.login(USER, PASSWORD)).as(ftp.getReplyString()).isTrue();
		ftp.enterLocalPassiveMode();
		ftp.setFileType(FTP.BINARY_FILE_TYPE);
		return ftp;
	}

	static void quit(FTPClient ftp) {
		try {
			ftp.disconnect();
		}
		catch (IOException ex) {
			// Nothing to lose.
		}
	}

	/** Every file under a folder, hidden ones (Wharf's temporary files) included, by name. */
	static List<String> files(Path folder) {
		if (!Files.isDirectory(folder)) {
			return List.of();
		}
		try (Stream<Path> files = Files.walk(folder)) {
			return files.filter(Files::isRegularFile).map(file -> folder.relativize(file).toString()).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Waits (30 s at most) until no temporary file of Wharf is left under a folder. */
	static void awaitNoTemporaryFiles(Path folder) throws InterruptedException {
		long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
		while (files(folder).stream().anyMatch(FaultClients::temporary) && System.nanoTime() < deadline) {
			Thread.sleep(100);
		}
		assertThat(files(folder)).noneMatch(FaultClients::temporary);
	}

	static boolean temporary(String name) {
		return name.contains(".wharf-tmp");
	}

}
