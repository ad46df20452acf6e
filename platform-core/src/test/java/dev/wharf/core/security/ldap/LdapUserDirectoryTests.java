package dev.wharf.core.security.ldap;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.wharf.core.security.DirectoryProperties.RuleProperties;
import dev.wharf.core.security.DirectoryRules;
import dev.wharf.core.security.DirectoryUnavailableException;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.FileExternalUserStore;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.NoMatchingRuleException;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.security.ldap.LdapProperties.GroupSearch;
import dev.wharf.core.security.ldap.LdapProperties.UserSearch;
import dev.wharf.core.testsupport.MutableClock;
import dev.wharf.core.testsupport.SlapdProcess;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link LdapUserDirectory} against a real OpenLDAP {@code slapd}: binds by DN pattern
 * and by search, groups from {@code memberOf} and by search, the rules, locked users,
 * names and passwords that must not reach the directory, a directory that is down, slow
 * or untrusted, LDAPS and StartTLS with an SSL bundle, and users confirmed again in the
 * background.
 */
class LdapUserDirectoryTests {

	@TempDir
	static Path folder;

	static SlapdProcess slapd;

	@TempDir
	Path state;

	final MutableClock clock = new MutableClock();

	final List<AutoCloseable> closing = new ArrayList<>();

	final DirectoryRules rules = new DirectoryRules(
			List.of(new RuleProperties("wharf-admins", List.of("admin"), Map.of()),
					new RuleProperties("staff", List.of("user"), Map.of("data", "ro")),
					new RuleProperties("Editors", List.of("user"), Map.of("data", "rw", "scratch", "ro"))),
			Set.of("data", "scratch")::contains);

	@BeforeAll
	static void startDirectory() throws Exception {
		slapd = SlapdProcess.start(folder.resolve("slapd"));
		slapd.addUser("alice", "alice-pw");
		slapd.addUser("bob", "bob-pw");
		slapd.addUser("carol", "carol-pw");
		slapd.addUser("mallory", "mallory-pw");
		slapd.addUser("nobody", "nobody-pw");
		slapd.addGroup("staff", "alice", "bob", "carol", "mallory");
		slapd.addGroup("editors", "alice");
		slapd.addGroup("wharf-admins", "carol");
		slapd.addGroup("others", "nobody");
	}

	@AfterAll
	static void stopDirectory() {
		slapd.close();
	}

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closing) {
			closeable.close();
		}
	}

	@Test
	void bindsAsTheUserByPatternAndMergesTheRulesOfTheGroupsInMemberOf() {
		LdapUserDirectory directory = directory(properties(ldap -> ldap));
		User alice = directory.verify("alice", "alice-pw").block();
		assertThat(alice).isNotNull();
		assertThat(alice.roles()).containsExactly(Role.USER);
		// staff gives data ro, Editors (matched without regard to case) data rw and
		// scratch ro: the greater wins.
		assertThat(alice.mounts()).isEqualTo(Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_ONLY));
		User bob = directory.verify("bob", "bob-pw").block();
		assertThat(bob).isNotNull();
		assertThat(bob.mounts()).isEqualTo(Map.of("data", MountAccess.READ_ONLY));
		assertThat(directory.verify("carol", "carol-pw").block())
			.satisfies(carol -> assertThat(carol.isAdmin()).isTrue());
		assertThat(directory.verify("alice", "wrong").block()).isNull();
		assertThat(directory.verify("stranger", "alice-pw").block()).isNull();
		// The users are remembered for their sessions and tokens.
		assertThat(directory.find("alice")).contains(alice);
		assertThat(directory.find("stranger")).isEmpty();
	}

	@Test
	void searchesForTheUserAsWharfAndReadsGroupsBySearch() {
		LdapUserDirectory directory = directory(searching(ldap -> ldap));
		long serviceBinds = slapd.binds(SlapdProcess.SERVICE_DN);
		User alice = directory.verify("alice", "alice-pw").block();
		assertThat(alice).isNotNull();
		assertThat(alice.mounts()).isEqualTo(Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_ONLY));
		assertThat(directory.verify("alice", "bob-pw").block()).isNull();
		assertThat(directory.verify("stranger", "x").block()).isNull();
		assertThat(slapd.binds(SlapdProcess.SERVICE_DN)).isGreaterThan(serviceBinds);
	}

	@Test
	void aUserWhoseGroupsMatchNoRuleIsDenied() {
		LdapUserDirectory directory = directory(properties(ldap -> ldap));
		assertThatThrownBy(() -> directory.verify("nobody", "nobody-pw").block())
			.isInstanceOf(NoMatchingRuleException.class);
		assertThat(directory.find("nobody")).isEmpty();
	}

	@Test
	void anEmptyPasswordAndNamesThatAreNoUserNamesNeverReachTheDirectory() {
		LdapUserDirectory directory = directory(searching(ldap -> ldap));
		long before = slapd.logText().lines().count();
		// An empty password would be an anonymous bind, which a directory accepts.
		assertThat(directory.verify("alice", "").block()).isNull();
		for (String name : List.of("*", "alice)(uid=*", "uid=alice,ou=people", "alice\u0000", " alice", "")) {
			assertThat(directory.verify(name, "alice-pw").block()).as(name).isNull();
		}
		assertThat(slapd.logText().lines().count()).isEqualTo(before);
	}

	@Test
	void aLockedUserIsRefused() throws Exception {
		slapd.addUser("locked", "locked-pw");
		slapd.modify(String.join("\n", "dn: cn=staff," + SlapdProcess.GROUPS, "changetype: modify", "add: member",
				"member: " + SlapdProcess.userDn("locked"), ""));
		LdapUserDirectory directory = directory(properties(ldap -> ldap));
		assertThat(directory.verify("locked", "locked-pw").block()).isNotNull();
		slapd.lock("locked");
		assertThat(directory.verify("locked", "locked-pw").block()).isNull();
	}

	@Test
	void usersAreConfirmedAgainInTheBackgroundAfterTheCacheTime() throws Exception {
		slapd.addUser("erin", "erin-pw");
		slapd.addUser("frank", "frank-pw");
		slapd.modify(String.join("\n", "dn: cn=staff," + SlapdProcess.GROUPS, "changetype: modify", "add: member",
				"member: " + SlapdProcess.userDn("erin"), "member: " + SlapdProcess.userDn("frank"), ""));
		LdapUserDirectory directory = directory(searching(ldap -> ldap));
		assertThat(directory.verify("erin", "erin-pw").block()).isNotNull();
		assertThat(directory.verify("frank", "frank-pw").block()).isNotNull();
		// frank is put in the editors, erin is locked: nothing changes within the cache
		// time.
		slapd.modify(String.join("\n", "dn: cn=editors," + SlapdProcess.GROUPS, "changetype: modify", "add: member",
				"member: " + SlapdProcess.userDn("frank"), ""));
		slapd.lock("erin");
		assertThat(directory.find("erin")).isPresent();
		assertThat(directory.find("frank").orElseThrow().access("scratch")).isEqualTo(MountAccess.NONE);
		this.clock.advance(Duration.ofSeconds(61));
		directory.find("erin");
		directory.find("frank");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(directory.find("erin")).isEmpty();
			assertThat(directory.find("frank").orElseThrow().access("scratch")).isEqualTo(MountAccess.READ_ONLY);
		});
	}

	@Test
	void aDirectoryThatIsDownIsUnavailableNeverAWrongPassword() throws Exception {
		LdapUserDirectory directory = directory(properties(ldap -> ldap));
		assertThat(directory.verify("bob", "bob-pw").block()).isNotNull();
		slapd.stop();
		try {
			assertThatThrownBy(() -> directory.verify("bob", "bob-pw").block())
				.isInstanceOf(DirectoryUnavailableException.class)
				.hasMessageContaining(slapd.url());
			assertThatThrownBy(() -> directory.verify("bob", "wrong").block())
				.isInstanceOf(DirectoryUnavailableException.class);
		}
		finally {
			slapd.start();
		}
		assertThat(directory.verify("bob", "bob-pw").block()).isNotNull();
	}

	@Test
	void aRefusedServiceBindIsUnavailableNeverAWrongPassword() {
		LdapUserDirectory directory = directory(
				searching(ldap -> with(ldap, "bindPassword", "not-the-service-password")));
		assertThatThrownBy(() -> directory.verify("alice", "alice-pw").block())
			.isInstanceOf(DirectoryUnavailableException.class);
	}

	@Test
	void aDirectoryThatDoesNotAnswerTimesOut() throws Exception {
		try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
			List<Socket> accepted = new ArrayList<>();
			Thread acceptor = new Thread(() -> {
				try {
					while (true) {
						accepted.add(silent.accept());
					}
				}
				catch (IOException closed) {
					// The test is over.
				}
			});
			acceptor.start();
			// The bind that opens a connection waits as long as the connect timeout;
			// later answers the read timeout.
			LdapUserDirectory directory = directory(
					properties(
							ldap -> with(
									with(with(ldap, "urls", List.of("ldap://127.0.0.1:" + silent.getLocalPort())),
											"readTimeout", Duration.ofMillis(500)),
									"connectTimeout", Duration.ofMillis(500))));
			long start = System.nanoTime();
			assertThatThrownBy(() -> directory.verify("bob", "bob-pw").block())
				.isInstanceOf(DirectoryUnavailableException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
			silent.close();
			acceptor.join(5000);
			for (Socket socket : accepted) {
				socket.close();
			}
		}
	}

	@Test
	void ldapsTrustsTheServerByTheBundle() throws Exception {
		LdapUserDirectory directory = directory(properties(ldap -> with(ldap, "urls", List.of(slapd.ldapsUrl()))),
				bundle());
		long before = tlsBinds();
		assertThat(directory.verify("bob", "bob-pw").block()).isNotNull();
		assertThat(tlsBinds()).isGreaterThan(before);
	}

	@Test
	void startTlsTrustsTheServerByTheBundle() throws Exception {
		LdapUserDirectory directory = directory(searching(ldap -> with(ldap, "startTls", true)), bundle());
		long before = tlsBinds();
		assertThat(directory.verify("bob", "bob-pw").block()).isNotNull();
		assertThat(directory.verify("bob", "wrong").block()).isNull();
		assertThat(tlsBinds()).isGreaterThan(before);
	}

	@Test
	void anUntrustedServerIsUnavailable() {
		LdapUserDirectory ldaps = directory(properties(ldap -> with(ldap, "urls", List.of(slapd.ldapsUrl()))));
		assertThatThrownBy(() -> ldaps.verify("bob", "bob-pw").block())
			.isInstanceOf(DirectoryUnavailableException.class);
		LdapUserDirectory startTls = directory(properties(ldap -> with(ldap, "startTls", true)));
		assertThatThrownBy(() -> startTls.verify("bob", "bob-pw").block())
			.isInstanceOf(DirectoryUnavailableException.class);
	}

	/**
	 * Binds over TLS so far: slapd logs the security strength of each bind's connection.
	 */
	static long tlsBinds() {
		return slapd.logText()
			.lines()
			.filter(line -> line.contains("BIND dn=") && line.contains("mech=SIMPLE") && line.contains("ssf=")
					&& !line.contains(" ssf=0"))
			.count();
	}

	LdapUserDirectory directory(LdapProperties properties) {
		return directory(properties, null);
	}

	LdapUserDirectory directory(LdapProperties properties, @Nullable SslBundle bundle) {
		FileExternalUserStore store = new FileExternalUserStore(this.state.resolve("external-users"),
				Schedulers.newSingle("test-external-users"), Duration.ofMinutes(1));
		this.closing.add(store);
		ExternalUsers users = new ExternalUsers(store, this.rules, Duration.ofDays(30), this.clock);
		LdapUserDirectory directory = new LdapUserDirectory(properties, bundle, users,
				Schedulers.newBoundedElastic(4, 100, "test-ldap"), this.clock);
		this.closing.add(directory);
		return directory;
	}

	/** By DN pattern, groups from memberOf, no DN of Wharf's own. */
	static LdapProperties properties(UnaryOperator<LdapProperties> change) {
		return change
			.apply(new LdapProperties(List.of(slapd.url()), false, null, null, null, "uid={0}," + SlapdProcess.PEOPLE,
					new UserSearch(null, "(uid={0})"), new GroupSearch(null, "(member={0})", "cn"), "memberOf",
					Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(60)));
	}

	/** By search as Wharf's own DN, groups by search. */
	static LdapProperties searching(UnaryOperator<LdapProperties> change) {
		return change.apply(new LdapProperties(List.of(slapd.url()), false, null, SlapdProcess.SERVICE_DN,
				SlapdProcess.SERVICE_PASSWORD, null,
				new UserSearch(SlapdProcess.PEOPLE, "(&(objectClass=inetOrgPerson)(uid={0}))"),
				new GroupSearch(SlapdProcess.GROUPS, "(member={0})", "cn"), "memberOf", Duration.ofSeconds(5),
				Duration.ofSeconds(10), Duration.ofSeconds(60)));
	}

	/** The same properties with one changed, by the record component's name. */
	static LdapProperties with(LdapProperties ldap, String component, Object value) {
		java.lang.reflect.RecordComponent[] components = LdapProperties.class.getRecordComponents();
		Object[] values = new Object[components.length];
		Class<?>[] types = new Class<?>[components.length];
		try {
			for (int i = 0; i < components.length; i++) {
				values[i] = components[i].getName().equals(component) ? value
						: components[i].getAccessor().invoke(ldap);
				types[i] = components[i].getType();
			}
			return LdapProperties.class.getDeclaredConstructor(types).newInstance(values);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static SslBundle bundle() throws Exception {
		KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
		trust.load(null, null);
		try (InputStream in = Files.newInputStream(slapd.certificate())) {
			trust.setCertificateEntry("slapd", CertificateFactory.getInstance("X.509").generateCertificate(in));
		}
		return SslBundle.of(SslStoreBundle.of(null, null, trust));
	}

}
