package dev.wharf.ftp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import dev.wharf.core.concurrent.DroppedErrors;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.InMemoryLoginThrottle;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.security.SecurityProperties.UserProperties;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.UnsupportedCapabilityException;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.local.LocalStorage;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.ftp.data.PassivePortRange;
import dev.wharf.ftp.server.FtpServerConfig;
import dev.wharf.ftp.server.WharfFtpServer;
import dev.wharf.ftp.tls.FtpTls;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A real Wharf FTP server on 127.0.0.1 and a free port, for tests: a {@code local} mount
 * {@code data} on a temporary folder (and optionally a {@code memory} mount
 * {@code scratch} and any mount as {@code remote}), and three users: {@code alice}
 * (read-write), {@code bob} (read-only) and {@code carol} (no FTP mount).
 */
public final class FtpTestServer implements AutoCloseable {

	/** Passwords are the user name with {@code -pw}. */
	public static final String ALICE = "alice";

	public static final String BOB = "bob";

	public static final String CAROL = "carol";

	private static final Map<String, String> HASHES = Map.of(ALICE, PasswordHashing.hash(password(ALICE)), BOB,
			PasswordHashing.hash(password(BOB)), CAROL, PasswordHashing.hash(password(CAROL)));

	private static @Nullable Path keyStore;

	private final Path dataRoot;

	private final List<Storage> storages = new ArrayList<>();

	private final Authenticator authenticator;

	private final WharfFtpServer server;

	private FtpTestServer(Path temp, Options options) throws IOException {
		this.dataRoot = Files.createDirectories(temp.resolve("data"));
		LocalStorage local = new LocalStorage("data", this.dataRoot, false, 4);
		this.storages.add(local);
		List<Mount> mounts = new ArrayList<>();
		mounts.add(new Mount("data", "local", local));
		if (options.scratch) {
			MemoryStorage memory = new MemoryStorage("scratch", 64L * 1024 * 1024);
			this.storages.add(memory);
			mounts.add(new Mount("scratch", "memory",
					options.scratchLikeObjectStore ? new ObjectStoreLike(memory) : memory));
		}
		if (options.remote != null) {
			this.storages.add(options.remote);
			mounts.add(new Mount("remote", "sftp", options.remote));
		}
		List<UserProperties> users = List.of(
				new UserProperties(ALICE, HASHES.get(ALICE), List.of("user"),
						Map.of("data", "rw", "scratch", "rw", "remote", "rw")),
				new UserProperties(BOB, HASHES.get(BOB), List.of("user"), Map.of("data", "ro")),
				new UserProperties(CAROL, HASHES.get(CAROL), List.of("user"), Map.of()));
		this.authenticator = new Authenticator(new ConfiguredUserDirectory(users, name -> true),
				new InMemoryLoginThrottle(), new AuditLog(), Schedulers.newBoundedElastic(2, 100, "test-ftp-auth"));
		FtpTls tls = (options.tls != TlsMode.OFF) ? FtpTls.of(bundle()) : null;
		FtpServerConfig config = new FtpServerConfig("127.0.0.1", 0, PassivePortRange.parse(options.passivePorts), null,
				mounts, options.idleTimeout, options.dataTimeout, options.maxConnections,
				options.maxConnectionsPerAddress, options.activeMode, tls, options.tls == TlsMode.IMPLICIT,
				options.tlsRequired);
		this.server = new WharfFtpServer(config, this.authenticator, new AuditLog());
		this.server.start();
	}

	/**
	 * Starts a server with the default options.
	 * @param temp a temporary folder for the data
	 * @return the running server
	 */
	public static FtpTestServer start(Path temp) throws IOException {
		return start(temp, options -> {
		});
	}

	/**
	 * Starts a server.
	 * @param temp a temporary folder for the data
	 * @param customizer changes the options
	 * @return the running server
	 */
	public static FtpTestServer start(Path temp, Consumer<Options> customizer) throws IOException {
		// As the application's entry point does: a transfer's failure that arrives
		// after its session is gone (a client that reset) is then logged as the
		// server logs it, not at ERROR by Reactor's default, which the logging tests
		// would see by chance.
		DroppedErrors.install();
		Options options = new Options();
		customizer.accept(options);
		return new FtpTestServer(temp, options);
	}

	/** The password of a test user. */
	public static String password(String user) {
		return user + "-pw";
	}

	/** The control port. */
	public int port() {
		return this.server.port();
	}

	/** The server. */
	public WharfFtpServer server() {
		return this.server;
	}

	/** The host folder behind the {@code data} mount. */
	public Path dataRoot() {
		return this.dataRoot;
	}

	/** An SSL context that trusts the test server's certificate. */
	public static SSLContext clientTls() {
		try {
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(loadKeyStore());
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The test certificate as PEM, for command-line clients. */
	public static synchronized Path certificatePem() throws IOException, InterruptedException {
		Path pem = keyStorePath().resolveSibling("server.pem");
		if (!Files.exists(pem)) {
			run(keytool(), "-exportcert", "-rfc", "-alias", "ftp", "-keystore", keyStorePath().toString(), "-storepass",
					"changeit", "-file", pem.toString());
		}
		return pem;
	}

	static SslBundle bundle() {
		try {
			return SslBundle.of(SslStoreBundle.of(loadKeyStore(), "changeit", null));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static KeyStore loadKeyStore() throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(keyStorePath())) {
			store.load(in, "changeit".toCharArray());
		}
		return store;
	}

	/**
	 * A PKCS#12 key store (password {@code changeit}) with a self-signed certificate for
	 * 127.0.0.1, made once per test JVM with the JDK's keytool.
	 */
	public static synchronized Path keyStorePath() throws IOException {
		if (keyStore == null) {
			Path folder = Files.createTempDirectory("wharf-ftp-tls");
			folder.toFile().deleteOnExit();
			Path store = folder.resolve("server.p12");
			try {
				run(keytool(), "-genkeypair", "-alias", "ftp", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
						"CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore",
						store.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException(ex);
			}
			keyStore = store;
		}
		return keyStore;
	}

	private static String keytool() {
		return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
	}

	private static void run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new IOException("keytool failed: " + new String(output));
		}
	}

	@Override
	public void close() {
		this.server.stop();
		this.authenticator.close();
		this.storages.forEach(Storage::close);
	}

	/** How FTPS is offered. */
	public enum TlsMode {

		OFF, EXPLICIT, IMPLICIT

	}

	/** What to change from the defaults. */
	public static final class Options {

		public String passivePorts = "";

		public Duration idleTimeout = Duration.ofSeconds(60);

		public Duration dataTimeout = Duration.ofSeconds(15);

		public int maxConnections = 100;

		public int maxConnectionsPerAddress = 100;

		public boolean activeMode = true;

		public TlsMode tls = TlsMode.OFF;

		public boolean tlsRequired;

		public boolean scratch;

		/**
		 * Whether {@code scratch} can neither append nor keep modification times, like an
		 * object store.
		 */
		public boolean scratchLikeObjectStore;

		/**
		 * A third mount, {@code remote} (read-write for alice), closed with the server.
		 */
		public @Nullable Storage remote;

	}

	/**
	 * A storage that can neither append nor set modification times, like an object store.
	 */
	private static final class ObjectStoreLike extends ForwardingStorage {

		ObjectStoreLike(Storage delegate) {
			super(delegate);
		}

		@Override
		public Set<Capability> capabilities() {
			Set<Capability> capabilities = EnumSet.copyOf(delegate().capabilities());
			capabilities.remove(Capability.APPEND);
			capabilities.remove(Capability.MODIFICATION_TIME);
			return capabilities;
		}

		@Override
		public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
			return Mono.error(new UnsupportedCapabilityException(Capability.MODIFICATION_TIME, "scratch"));
		}

		@Override
		public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
			return (options.mode() == WriteMode.APPEND)
					? Mono.error(new UnsupportedCapabilityException(Capability.APPEND, "scratch"))
					: delegate().write(path, content, options);
		}

	}

}
