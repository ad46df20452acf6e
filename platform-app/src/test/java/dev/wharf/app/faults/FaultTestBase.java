package dev.wharf.app.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.ftp.server.WharfFtpServer;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole application on a random port, with every module, and the clients a fault test
 * uses: one user with every role, the file manager with an API token, the build cache
 * with HTTP Basic, a Commons Net FTP client. Each test class has its own context (its own
 * mounts and backends), closed after it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
abstract class FaultTestBase {

	static final String USER = "ops";

	static final String PASSWORD = "faults-password";

	private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	WharfFtpServer ftpServer;

	private @Nullable String bearer;

	/**
	 * Registers the user (admin, so rw on every mount, and both cache roles), a state
	 * folder and free FTP ports.
	 */
	static void register(DynamicPropertyRegistry registry) {
		String hash = PasswordHashing.hash(PASSWORD);
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.security.users[0].name", () -> USER);
		registry.add("wharf.security.users[0].password", () -> hash);
		registry.add("wharf.security.users[0].roles", () -> "admin,user,cache-reader,cache-writer");
		registry.add("wharf.ftp.port", () -> "0");
		registry.add("wharf.ftp.passive-ports", () -> "0");
	}

	/**
	 * A file manager call, such as {@code files("POST", "save", "/data/a.txt", bytes)},
	 * with an API token.
	 */
	Response files(String method, String action, String path, byte @Nullable [] body) throws IOException {
		return exchange(method, "/api/files/" + action + "?path=" + path, bearer(), body);
	}

	/** A build cache call; an empty key is the cache's health check (no credentials). */
	Response cache(String method, String key, byte @Nullable [] body) throws IOException {
		return key.isEmpty() ? exchange(method, "/cache", null, null)
				: exchange(method, "/cache/" + key, RawHttp.basic(USER, PASSWORD), body);
	}

	/** A GET without credentials (static sites, health). */
	Response get(String target) throws IOException {
		return exchange("GET", target, null, null);
	}

	/** Sends a whole request on a connection of its own and reads the whole answer. */
	Response exchange(String method, String target, @Nullable String authorization, byte @Nullable [] body)
			throws IOException {
		return exchange(this.port, method, target, headers(authorization), body);
	}

	/**
	 * Sends a whole request with the given header lines on a connection of its own and
	 * reads the whole answer.
	 */
	static Response exchange(int port, String method, String target, List<String> headers, byte @Nullable [] body)
			throws IOException {
		try (RawHttp http = RawHttp.open(port)) {
			return http.exchange(method, target, headers, body);
		}
	}

	/**
	 * A request's headers: the answer ends with the connection, the credentials if any,
	 * and more lines.
	 */
	static List<String> headers(@Nullable String authorization, String... more) {
		List<String> headers = RawHttp.headers("Connection: close");
		if (authorization != null) {
			headers.add("Authorization: " + authorization);
		}
		headers.addAll(List.of(more));
		return headers;
	}

	/**
	 * {@code Authorization} for the file manager: a token minted once with the password.
	 */
	String bearer() throws IOException {
		if (this.bearer == null) {
			Response minted = exchange("POST", "/api/tokens?name=faults", RawHttp.basic(USER, PASSWORD), null);
			Matcher token = TOKEN.matcher(minted.text());
			assertThat(token.find()).as(minted.text()).isTrue();
			this.bearer = "Bearer " + token.group(1);
		}
		return this.bearer;
	}

	/** A logged-in FTP client in passive binary mode. */
	FTPClient ftp() throws IOException {
		FTPClient ftp = new FTPClient();
		ftp.setConnectTimeout(30_000);
		ftp.setDefaultTimeout(60_000);
		ftp.setDataTimeout(Duration.ofSeconds(60));
		ftp.connect(InetAddress.getLoopbackAddress(), this.ftpServer.port());
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

	/**
	 * Every file under a folder, hidden ones (Wharf's temporary files) included, by name.
	 */
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
	static void awaitNoTemporaryFiles(Path folder) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(files(folder)).noneMatch(FaultTestBase::temporary));
	}

	static boolean temporary(String name) {
		return name.contains(".wharf-tmp");
	}

}
