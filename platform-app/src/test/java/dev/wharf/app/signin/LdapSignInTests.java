package dev.wharf.app.signin;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.wharf.core.testsupport.JvmTempFolder;
import dev.wharf.core.testsupport.SlapdProcess;
import dev.wharf.ftp.server.WharfFtpServer;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPConnectionClosedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * LDAP users of a real OpenLDAP slapd against the whole application, over every protocol
 * with its real client: the file manager's API, FTP with lftp, the build cache with curl.
 * Groups give rights by the rules; a user the directory locks is refused everywhere and
 * loses the sessions they had; the build cache's Basic on every request binds once per
 * cache time; a directory that is down gives 503 with {@code Retry-After} and FTP 421,
 * never a wrong password; a configured user never reaches the directory; an LDAP user's
 * API token serves FTP and the cache.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
class LdapSignInTests {

	static final Duration CACHE_TIME = Duration.ofSeconds(10);

	static final Path ROOT = JvmTempFolder.create("wharf-ldap-tests");

	static SlapdProcess slapd;

	@LocalServerPort
	int port;

	@Autowired
	WharfFtpServer ftp;

	Clients clients;

	@DynamicPropertySource
	static void ldap(DynamicPropertyRegistry registry) throws Exception {
		slapd = SlapdProcess.start(ROOT.resolve("slapd"));
		for (String user : new String[] { "alice", "carol", "dave", "erin", "frank", "grace", "bot", "nobody",
				"admin" }) {
			slapd.addUser(user, user + "-pw");
		}
		slapd.addGroup("staff", "alice", "carol", "dave", "erin", "frank", "grace");
		slapd.addGroup("editors", "carol");
		slapd.addGroup("ci", "bot", "frank", "grace");
		slapd.addGroup("wharf-admins", "admin");
		slapd.addGroup("visitors", "nobody");
		SignInServer.configure(registry, ROOT);
		Files.createDirectories(ROOT.resolve("scratch"));
		registry.add("wharf.storage.mounts.scratch.type", () -> "local");
		registry.add("wharf.storage.mounts.scratch.root", () -> ROOT.resolve("scratch").toString());
		registry.add("wharf.filemanager.mounts", () -> "data,scratch");
		registry.add("wharf.ftp.mounts", () -> "data,scratch");
		registry.add("wharf.security.ldap.urls[0]", slapd::url);
		registry.add("wharf.security.ldap.bind-dn", () -> SlapdProcess.SERVICE_DN);
		registry.add("wharf.security.ldap.bind-password", () -> SlapdProcess.SERVICE_PASSWORD);
		registry.add("wharf.security.ldap.user-search.base", () -> SlapdProcess.PEOPLE);
		registry.add("wharf.security.ldap.group-search.base", () -> SlapdProcess.GROUPS);
		registry.add("wharf.security.ldap.cache-time", () -> CACHE_TIME.toMillis() + "ms");
		rule(registry, 0, "wharf-admins", "admin", null, null);
		rule(registry, 1, "ci", "cache-reader,cache-writer", null, null);
		rule(registry, 2, "staff", "user", "ro", "rw");
		rule(registry, 3, "editors", "user", "rw", null);
	}

	static void rule(DynamicPropertyRegistry registry, int index, String group, String roles, String data,
			String scratch) {
		String prefix = "wharf.security.directory.rules[" + index + "].";
		registry.add(prefix + "group", () -> group);
		registry.add(prefix + "roles", () -> roles);
		if (data != null) {
			registry.add(prefix + "mounts.data", () -> data);
		}
		if (scratch != null) {
			registry.add(prefix + "mounts.scratch", () -> scratch);
		}
	}

	@AfterAll
	static void stopDirectory() {
		slapd.close();
	}

	@BeforeEach
	void clients() throws IOException {
		this.clients = new Clients(this.port, this.ftp.port(), Files.createDirectories(ROOT.resolve("client")));
	}

	@Test
	void fileManagerSessionsHaveTheRightsTheirGroupsGive() throws Exception {
		String alice = Clients.cookie(this.clients.login("alice", "alice-pw"));
		HttpResponse<String> session = this.clients.withSession(alice, "GET", "/api/session", null);
		assertThat(session.body()).contains("\"username\":\"alice\"")
			.contains("{\"name\":\"data\",\"access\":\"ro\"}")
			.contains("{\"name\":\"scratch\",\"access\":\"rw\"}");
		assertThat(
				this.clients.withSession(alice, "POST", "/api/files/save?path=/scratch/alice.txt", "hi").statusCode())
			.isEqualTo(200);
		assertThat(this.clients.withSession(alice, "POST", "/api/files/save?path=/data/alice.txt", "hi").statusCode())
			.isEqualTo(403);
		String carol = Clients.cookie(this.clients.login("carol", "carol-pw"));
		assertThat(this.clients.withSession(carol, "POST", "/api/files/save?path=/data/carol.txt", "hi").statusCode())
			.isEqualTo(200);
		assertThat(ROOT.resolve("data/carol.txt")).hasContent("hi");
		// A wrong password and a right one that no rule matches get the same answer.
		HttpResponse<String> wrong = this.clients.login("alice", "nope");
		HttpResponse<String> noRule = this.clients.login("nobody", "nobody-pw");
		assertThat(wrong.statusCode()).isEqualTo(401);
		assertThat(noRule.statusCode()).isEqualTo(401);
		assertThat(noRule.body()).isEqualTo(wrong.body());
	}

	@Test
	void ftpLogsLdapUsersInWithLftp() throws Exception {
		Files.writeString(ROOT.resolve("client/up.txt"), "from lftp");
		Clients.Result carol = this.clients.lftp("carol", "carol-pw", "put up.txt -o data/lftp.txt", "cls -1 data");
		assertThat(carol.exit()).as(carol.output()).isZero();
		assertThat(carol.output()).contains("lftp.txt");
		assertThat(ROOT.resolve("data/lftp.txt")).hasContent("from lftp");
		Clients.Result alice = this.clients.lftp("alice", "alice-pw", "put up.txt -o data/refused.txt");
		assertThat(alice.exit()).as("alice may only read data").isNotZero();
		assertThat(ROOT.resolve("data/refused.txt")).doesNotExist();
		Clients.Result wrong = this.clients.lftp("carol", "wrong", "cls -1 data");
		assertThat(wrong.exit()).isNotZero();
		assertThat(wrong.output()).contains("Login incorrect");
	}

	@Test
	void theBuildCachesBasicOnEveryRequestBindsOncePerCacheTime() throws Exception {
		Path entry = Files.writeString(ROOT.resolve("client/entry.bin"), "cache entry");
		long before = slapd.binds(SlapdProcess.userDn("bot"));
		assertThat(this.clients.curl("/cache/0123abcd", "-u", "bot:bot-pw", "-T", entry.toString()).status())
			.isEqualTo(201);
		for (int i = 0; i < 5; i++) {
			Clients.Result get = this.clients.curl("/cache/0123abcd", "-u", "bot:bot-pw");
			assertThat(get.status()).isEqualTo(200);
			assertThat(get.output()).contains("cache entry");
		}
		assertThat(slapd.binds(SlapdProcess.userDn("bot")) - before).isEqualTo(1);
		assertThat(this.clients.curl("/cache/0123abcd", "-u", "alice:alice-pw", "-T", entry.toString()).status())
			.as("staff may not write the cache")
			.isEqualTo(403);
		assertThat(this.clients.curl("/cache/0123abcd", "-u", "bot:wrong").status()).isEqualTo(401);
	}

	@Test
	void aUserTheDirectoryLocksIsRefusedEverywhereAndLosesTheirSessions() throws Exception {
		String erin = Clients.cookie(this.clients.login("erin", "erin-pw"));
		assertThat(this.clients.withSession(erin, "GET", "/api/session", null).statusCode()).isEqualTo(200);
		slapd.lock("erin");
		slapd.lock("dave");
		assertThat(this.clients.login("dave", "dave-pw").statusCode()).isEqualTo(401);
		assertThat(this.clients.lftp("dave", "dave-pw", "cls -1 data").output()).contains("Login incorrect");
		assertThat(this.clients.curl("/cache/0123abcd", "-u", "dave:dave-pw").status()).isEqualTo(401);
		// The session ends once the directory is asked again, after the cache time.
		await().atMost(CACHE_TIME.multipliedBy(3))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> this.clients.withSession(erin, "GET", "/api/session", null).statusCode() == 401);
	}

	@Test
	void aDirectoryThatIsDownMakesLoginsUnavailableNeverWrong() throws Exception {
		// grace has not logged in yet, so no remembered password answers for the
		// directory.
		slapd.stop();
		try {
			HttpResponse<String> login = this.clients.login("grace", "grace-pw");
			assertThat(login.statusCode()).as(login.body()).isEqualTo(503);
			assertThat(login.headers().firstValue("Retry-After")).isPresent();
			assertThat(login.body()).contains("Logins are unavailable");
			Clients.Result cache = this.clients.curl("/cache/0123abcd", "-u", "grace:grace-pw");
			assertThat(cache.status()).as(cache.output()).isEqualTo(503);
			assertThat(cache.output()).containsIgnoringCase("Retry-After:");
			FTPClient ftp = new FTPClient();
			ftp.connect("127.0.0.1", this.ftp.port());
			try {
				// commons-net reports a 421 as the connection closing, which it is.
				assertThatThrownBy(() -> ftp.login("grace", "grace-pw"))
					.isInstanceOf(FTPConnectionClosedException.class)
					.hasMessageContaining("421");
				assertThat(ftp.getReplyString()).contains("Logins are unavailable");
			}
			finally {
				ftp.disconnect();
			}
			// A configured account does not need the directory.
			assertThat(this.clients.login("admin", SignInServer.ADMIN_PASSWORD).statusCode()).isEqualTo(200);
		}
		finally {
			slapd.start();
		}
		assertThat(this.clients.login("grace", "grace-pw").statusCode()).isEqualTo(200);
	}

	@Test
	void aConfiguredNameIsNeverSentToTheDirectory() throws Exception {
		assertThat(this.clients.login("admin", "admin-pw").statusCode()).as("the directory's password").isEqualTo(401);
		assertThat(this.clients.login("admin", SignInServer.ADMIN_PASSWORD).statusCode()).isEqualTo(200);
		assertThat(slapd.binds(SlapdProcess.userDn("admin"))).isZero();
	}

	@Test
	void anLdapUsersApiTokenServesFtpAndTheBuildCache() throws Exception {
		HttpResponse<String> minted = this.clients.withBasic("frank", "frank-pw", "POST", "/api/tokens?name=ci");
		assertThat(minted.statusCode()).as(minted.body()).isEqualTo(201);
		Matcher token = Pattern.compile("\"token\":\"(wharf_[A-Za-z0-9_-]+)\"").matcher(minted.body());
		assertThat(token.find()).isTrue();
		Files.writeString(ROOT.resolve("client/token.txt"), "by token");
		Clients.Result ftp = this.clients.lftp("frank", token.group(1), "put token.txt -o scratch/token.txt");
		assertThat(ftp.exit()).as(ftp.output()).isZero();
		assertThat(ROOT.resolve("scratch/token.txt")).hasContent("by token");
		assertThat(this.clients.curl("/cache/feedbeef", "-u", "frank:" + token.group(1)).status()).isEqualTo(404);
		assertThat(this.clients.curl("/cache/feedbeef", "-u", "carol:" + token.group(1)).status())
			.as("a token is its own user's only")
			.isEqualTo(401);
		assertThat(this.clients.lftp("carol", token.group(1), "cls -1 data").output()).contains("Login incorrect");
	}

}
