package dev.wharf.core.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.fail;

/**
 * A real OpenLDAP {@code slapd} on 127.0.0.1, started by a test in a folder of its own: a
 * generated {@code slapd.conf} (the {@code mdb} backend, the core, cosine, inetOrgPerson
 * and nis schemas, the {@code memberof} overlay that keeps users' {@code memberOf}, the
 * {@code ppolicy} overlay that refuses the binds of locked accounts), {@code ldap://} and
 * {@code ldaps://} on free ports, StartTLS on the former, with a throwaway certificate
 * for 127.0.0.1 made by the JDK's keytool. It runs in the foreground as the current user
 * and logs every operation ({@code -d stats}), so tests can count binds.
 *
 * <p>
 * The directory under {@value #BASE} holds {@code ou=people}, {@code ou=groups}, and
 * Wharf's own account {@value #SERVICE_DN} (password {@value #SERVICE_PASSWORD}); tests
 * add users and groups with {@link #addUser} and {@link #addGroup}. {@link #stop()} and
 * {@link #start()} simulate a directory that goes down and comes back on the same ports
 * with the same data. Published in platform-core's test-jar.
 */
public final class SlapdProcess implements AutoCloseable {

	/** The directory's suffix. */
	public static final String BASE = "dc=example,dc=org";

	/** Where users are. */
	public static final String PEOPLE = "ou=people," + BASE;

	/** Where groups are. */
	public static final String GROUPS = "ou=groups," + BASE;

	/** Wharf's own DN, which may read every entry but passwords. */
	public static final String SERVICE_DN = "cn=wharf,ou=services," + BASE;

	/** Its password. */
	public static final String SERVICE_PASSWORD = "wharf-service-secret";

	private static final String ADMIN_DN = "cn=admin," + BASE;

	private static final String ADMIN_PASSWORD = "admin-secret";

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path slapd;

	private final Path ldapadd;

	private final Path ldapmodify;

	private final Path directory;

	private final int port;

	private final int tlsPort;

	private final Thread killer = new Thread(this::stop, "wharf-test-slapd-stop");

	private @Nullable Process process;

	private SlapdProcess(Path directory) throws IOException, InterruptedException {
		this.slapd = Requirements.requireExecutable("slapd", "slapd");
		this.ldapadd = Requirements.requireExecutable("ldapadd", "ldap-utils");
		this.ldapmodify = Requirements.requireExecutable("ldapmodify", "ldap-utils");
		this.directory = directory;
		this.port = FreePorts.loopback();
		this.tlsPort = FreePorts.loopback();
		Files.createDirectories(directory.resolve("data"));
		makeCertificate(directory);
		Files.writeString(directory.resolve("slapd.conf"), String.join("\n", "include /etc/ldap/schema/core.schema",
				"include /etc/ldap/schema/cosine.schema", "include /etc/ldap/schema/inetorgperson.schema",
				"include /etc/ldap/schema/nis.schema", "modulepath /usr/lib/ldap", "moduleload back_mdb",
				"moduleload memberof", "moduleload ppolicy", "pidfile " + directory.resolve("slapd.pid"),
				"TLSCertificateFile " + certificate(), "TLSCertificateKeyFile " + directory.resolve("key.pem"),
				"database mdb", "suffix \"" + BASE + "\"", "rootdn \"" + ADMIN_DN + "\"", "rootpw " + ADMIN_PASSWORD,
				"directory " + directory.resolve("data"), "maxsize 16777216", "overlay memberof",
				"memberof-group-oc groupOfNames", "memberof-member-ad member", "memberof-memberof-ad memberOf",
				"memberof-refint TRUE", "overlay ppolicy", "ppolicy_default \"cn=default,ou=policies," + BASE + "\"",
				"access to attrs=userPassword by anonymous auth by * none", "access to * by * read", ""),
				StandardCharsets.UTF_8);
	}

	/**
	 * Makes a directory in a folder and starts it; fails (in CI) or skips the test if
	 * slapd or ldap-utils is missing.
	 * @param directory an empty folder for the configuration, the certificate, the data
	 * and the log
	 * @return the running directory, holding the base entries
	 */
	public static SlapdProcess start(Path directory) throws IOException, InterruptedException {
		SlapdProcess slapd = new SlapdProcess(directory);
		// Even a test run that is killed or times out must not leave a slapd behind.
		Runtime.getRuntime().addShutdownHook(slapd.killer);
		slapd.start();
		slapd.ldap(slapd.ldapadd,
				String.join("\n", "dn: " + BASE, "objectClass: dcObject", "objectClass: organization", "o: Example",
						"dc: example", "", "dn: " + PEOPLE, "objectClass: organizationalUnit", "ou: people", "",
						"dn: " + GROUPS, "objectClass: organizationalUnit", "ou: groups", "", "dn: ou=services," + BASE,
						"objectClass: organizationalUnit", "ou: services", "", "dn: " + SERVICE_DN,
						"objectClass: person", "cn: wharf", "sn: wharf", "userPassword: " + SERVICE_PASSWORD, "",
						"dn: ou=policies," + BASE, "objectClass: organizationalUnit", "ou: policies", "",
						"dn: cn=default,ou=policies," + BASE, "objectClass: pwdPolicy", "objectClass: device",
						"cn: default", "pwdAttribute: userPassword", "pwdLockout: TRUE", "pwdMaxFailure: 1000", ""));
		return slapd;
	}

	/**
	 * Starts the directory (again), on the same ports with the same data; returns when it
	 * accepts connections.
	 */
	public synchronized void start() throws IOException, InterruptedException {
		if (this.process != null && this.process.isAlive()) {
			return;
		}
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (true) {
			this.process = new ProcessBuilder(this.slapd.toString(), "-f",
					this.directory.resolve("slapd.conf").toString(), "-h", url() + "/ " + ldapsUrl() + "/", "-d",
					"stats")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
				.start();
			if (Processes.awaitReady(this.process, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
					Duration.ofMillis(20), this::listens)) {
				return;
			}
			Processes.kill(this.process);
			if (System.nanoTime() > deadline) {
				fail("slapd did not start; its log: " + logText());
			}
			// Usually a port is still held by a stopped server's connections: try again
			// once both are free.
			Processes.awaitFree(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), this.port, this.tlsPort);
		}
	}

	/** Whether both ports accept connections (not listening yet fails). */
	private boolean listens() throws IOException {
		try (Socket plain = new Socket(); Socket tls = new Socket()) {
			plain.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 1000);
			tls.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.tlsPort), 1000);
			return true;
		}
	}

	/** Stops the directory at once ({@code SIGKILL}), as a crash or an outage would. */
	public synchronized void stop() {
		Processes.kill(this.process);
		this.process = null;
	}

	/** {@code ldap://127.0.0.1:port}, where StartTLS is offered too. */
	public String url() {
		return "ldap://127.0.0.1:" + this.port;
	}

	/** {@code ldaps://127.0.0.1:port}. */
	public String ldapsUrl() {
		return "ldaps://127.0.0.1:" + this.tlsPort;
	}

	/** The server's certificate (PEM), to trust it by. */
	public Path certificate() {
		return this.directory.resolve("cert.pem");
	}

	/**
	 * The DN of a user added with {@link #addUser}.
	 * @param uid the user's {@code uid}
	 * @return {@code uid=<uid>,ou=people,dc=example,dc=org}
	 */
	public static String userDn(String uid) {
		return "uid=" + uid + "," + PEOPLE;
	}

	/**
	 * Adds a user ({@code inetOrgPerson} under {@value #PEOPLE}).
	 * @param uid the login name
	 * @param password the password
	 */
	public void addUser(String uid, String password) throws IOException, InterruptedException {
		ldap(this.ldapadd, String.join("\n", "dn: " + userDn(uid), "objectClass: inetOrgPerson", "uid: " + uid,
				"cn: " + uid, "sn: " + uid, "userPassword: " + password, ""));
	}

	/**
	 * Adds a group ({@code groupOfNames} under {@value #GROUPS}); the overlay adds it to
	 * its members' {@code memberOf}.
	 * @param cn the group's name
	 * @param uids its members' {@code uid}s, at least one
	 */
	public void addGroup(String cn, String... uids) throws IOException, InterruptedException {
		List<String> lines = new ArrayList<>(
				List.of("dn: cn=" + cn + "," + GROUPS, "objectClass: groupOfNames", "cn: " + cn));
		for (String uid : uids) {
			lines.add("member: " + userDn(uid));
		}
		lines.add("");
		ldap(this.ldapadd, String.join("\n", lines));
	}

	/**
	 * Changes entries, as the directory's administrator.
	 * @param ldif changes in LDIF ({@code changetype: modify} or {@code delete})
	 */
	public void modify(String ldif) throws IOException, InterruptedException {
		ldap(this.ldapmodify, ldif);
	}

	/**
	 * Locks a user's account as the password policy does ({@code pwdAccountLockedTime}):
	 * its binds are refused.
	 * @param uid the user's {@code uid}
	 */
	public void lock(String uid) throws IOException, InterruptedException {
		modify(String.join("\n", "dn: " + userDn(uid), "changetype: modify", "replace: pwdAccountLockedTime",
				"pwdAccountLockedTime: 000001010000Z", ""));
	}

	/**
	 * How many simple binds as a DN the directory has seen (counted in its log).
	 * @param dn the DN
	 * @return the number of binds, right or wrong
	 */
	public long binds(String dn) {
		String mark = "BIND dn=\"" + dn + "\" method=128";
		return logText().lines().filter(line -> line.contains(mark)).count();
	}

	/** The directory's log so far. */
	public String logText() {
		try {
			return Files.exists(log()) ? Files.readString(log(), StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Path log() {
		return this.directory.resolve("slapd.log");
	}

	private void ldap(Path tool, String ldif) throws IOException, InterruptedException {
		Process client = new ProcessBuilder(tool.toString(), "-x", "-H", url(), "-D", ADMIN_DN, "-w", ADMIN_PASSWORD)
			.redirectErrorStream(true)
			.start();
		client.getOutputStream().write(ldif.getBytes(StandardCharsets.UTF_8));
		client.getOutputStream().close();
		String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!client.waitFor(30, TimeUnit.SECONDS) || client.exitValue() != 0) {
			fail(tool.getFileName() + " failed: " + output);
		}
	}

	/**
	 * A key pair and certificate for 127.0.0.1 by keytool, written out as PEM for slapd.
	 */
	private static void makeCertificate(Path directory) throws IOException, InterruptedException {
		Path store = directory.resolve("server.p12");
		char[] password = "changeit".toCharArray();
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "slapd", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname",
				"CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(),
				"-storepass", new String(password))
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
			fail("keytool failed: " + output);
		}
		try (InputStream in = Files.newInputStream(store)) {
			KeyStore keys = KeyStore.getInstance("PKCS12");
			keys.load(in, password);
			Certificate certificate = keys.getCertificate("slapd");
			Files.writeString(directory.resolve("cert.pem"), pem("CERTIFICATE", certificate.getEncoded()));
			Files.writeString(directory.resolve("key.pem"),
					pem("PRIVATE KEY", keys.getKey("slapd", password).getEncoded()));
		}
		catch (GeneralSecurityException ex) {
			throw new IOException(ex);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.killer);
		}
		catch (IllegalStateException shuttingDown) {
			// The hook runs anyway.
		}
	}

}
