package dev.wharf.core.storage.sftp;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.transport.verification.FingerprintVerifier;
import net.schmizz.sshj.transport.verification.HostKeyVerifier;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;
import net.schmizz.sshj.transport.verification.PromiscuousVerifier;
import net.schmizz.sshj.userauth.keyprovider.FileKeyProvider;
import net.schmizz.sshj.userauth.keyprovider.KeyFormat;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.keyprovider.KeyProviderUtil;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.Context;

/**
 * Makes {@code sftp} mounts ({@link SftpStorageProperties}). Everything that can be
 * checked without the server is checked at start-up (the private key and its passphrase,
 * the known hosts); then a mount with its own login connects once, to learn whether the
 * server renames atomically. A server that cannot be reached at start-up does not stop
 * Wharf: the mount reports itself down and connects when it can.
 */
public final class SftpStorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "sftp";

	private static final Log logger = LogFactory.getLog(SftpStorageProvider.class);

	static {
		// Before the known hosts or a private key are read with sshj's help.
		SshjSecurity.apply();
	}

	@Override
	public String type() {
		return TYPE;
	}

	@Override
	public Storage create(MountDefinition definition) {
		return create(definition, true);
	}

	/**
	 * Makes a mount.
	 * @param definition the mount's name and properties
	 * @param usePosixRename whether to use {@code posix-rename@openssh.com} where
	 * offered; {@code false} only to test the way without it
	 * @return the storage
	 */
	SftpStorage create(MountDefinition definition, boolean usePosixRename) {
		SftpStorageProperties properties = definition.bind(SftpStorageProperties.class);
		String mount = definition.name();
		int perConnection = ioThreadsPerConnection(definition);
		long window = windowSize(definition);
		try {
			HostKeyVerifier verifier = hostKeyVerifier(properties, mount);
			KeyProvider key = privateKey(properties);
			// The properties refuse a missing host.
			String host = Objects.requireNonNull(properties.host(), "An sftp mount without a host");
			SftpConnector connector = new SftpConnector(mount, host, properties.port(), verifier, properties.root(),
					properties.connectTimeout(), properties.readTimeout(), properties.keepAlive(), window);
			int ioThreads = properties.effectiveIoThreads(perConnection);
			Scheduler io = BlockingScheduler.create("wharf-sftp-" + mount, ioThreads, ioThreads * 100_000);
			Duration wait = properties.connectTimeout().plus(properties.readTimeout().multipliedBy(4));
			if (properties.credentials() == SftpStorageProperties.CredentialsMode.PASSTHROUGH) {
				SftpPools pools = SftpPools.passthrough(connector, properties.maxUsers(), properties.poolSize(),
						properties.idleTimeout(), wait, io);
				logger.info("Mount '" + mount + "': logs in to " + connector.server() + " as each user (passthrough)");
				return new SftpStorage(mount, pools, io, false, usePosixRename);
			}
			String password = (properties.password() == null || properties.password().isEmpty()) ? null
					: properties.password();
			// The properties refuse fixed credentials without a username.
			String username = Objects.requireNonNull(properties.username(), "Fixed credentials without a username");
			SftpLogin login = new SftpLogin(username, password, key, false);
			SftpPools pools = SftpPools.fixed(connector, login, properties.poolSize(), properties.idleTimeout(), wait,
					io);
			return new SftpStorage(mount, pools, io, probeAtomicRename(pools, connector), usePosixRename);
		}
		catch (InvalidConfigurationException ex) {
			throw ex.withPrefix(definition.prefix());
		}
	}

	/**
	 * The I/O threads per pooled connection for mounts that leave {@code io-threads} at
	 * 0: {@value SftpStorageProperties#IO_THREADS_PER_CONNECTION}, 1 to 16. Each thread
	 * costs its stack and bookkeeping (about 50 KB resident), which the small profiles
	 * cannot spare for four threads per connection.
	 */
	private static int ioThreadsPerConnection(MountDefinition definition) {
		return definition.sharedSetting(SftpStorageProperties.IO_THREADS_PER_CONNECTION,
				SftpStorageProperties.DEFAULT_IO_THREADS_PER_CONNECTION, 1, 16);
	}

	/**
	 * The SSH channel window of mounts: {@value SftpStorageProperties#WINDOW_SIZE}, 64 KB
	 * to 16 MB, 2 MB (sshj's) unless set. A channel's receive buffer grows up to it in
	 * the heap, so a small heap (p128) sets it lower.
	 */
	private static long windowSize(MountDefinition definition) {
		return definition
			.sharedSize(SftpStorageProperties.WINDOW_SIZE, DataSize.ofMegabytes(2), DataSize.ofKilobytes(64),
					DataSize.ofMegabytes(16))
			.toBytes();
	}

	/**
	 * Connects once to see whether the server offers atomic renames; a failure is logged,
	 * not fatal.
	 */
	private static boolean probeAtomicRename(SftpPools pools, SftpConnector connector) {
		try (SftpConnectionPool.Lease lease = pools.acquire(Context.empty())) {
			boolean atomic = lease.connection().hasPosixRename();
			logger.info("Mount '" + connector.mount() + "': connected to " + connector.server()
					+ (atomic ? "" : "; the server cannot replace files atomically (no posix-rename@openssh.com)"));
			return atomic;
		}
		catch (StorageException | IOException ex) {
			logger.warn("Mount '" + connector.mount() + "': cannot connect to " + connector.server()
					+ " at start-up, will retry on use: " + ex.getMessage());
			return false;
		}
	}

	static HostKeyVerifier hostKeyVerifier(SftpStorageProperties properties, String mount) {
		if (properties.insecureAcceptAnyHostKey()) {
			logger.warn("Mount '" + mount + "': insecure-accept-any-host-key is on: the server's identity is not "
					+ "verified, so anyone on the network path can read and change its files and learn its login");
			return new PromiscuousVerifier();
		}
		if (properties.hostKeyFingerprint() != null) {
			return FingerprintVerifier.getInstance(properties.hostKeyFingerprint());
		}
		// The properties require exactly one way to trust the host key, and it is neither
		// of the above.
		String knownHosts = Objects.requireNonNull(properties.knownHosts(), "No way to trust the host key");
		OpenSSHKnownHosts verifier;
		try {
			if (knownHosts.startsWith(SftpStorageProperties.FILE_PREFIX)) {
				File file = readableFile("known-hosts", knownHosts);
				verifier = new OpenSSHKnownHosts(file);
			}
			else {
				verifier = new OpenSSHKnownHosts(new StringReader(knownHosts));
			}
		}
		catch (IOException ex) {
			throw new InvalidConfigurationException("known-hosts", null, "cannot be read: " + ex.getMessage());
		}
		if (verifier.entries().stream().noneMatch(OpenSSHKnownHosts.HostEntry.class::isInstance)) {
			throw new InvalidConfigurationException("known-hosts",
					knownHosts.startsWith(SftpStorageProperties.FILE_PREFIX) ? knownHosts : null,
					"holds no host key in known_hosts format (to name a file, write file:/path/to/known_hosts)");
		}
		return verifier;
	}

	static @Nullable KeyProvider privateKey(SftpStorageProperties properties) {
		String value = properties.privateKey();
		if (value == null) {
			return null;
		}
		PasswordFinder passphrase = (properties.passphrase() != null)
				? new SftpLogin.FixedPassword(properties.passphrase()) : null;
		try {
			FileKeyProvider provider;
			if (value.startsWith(SftpStorageProperties.FILE_PREFIX)) {
				File file = readableFile("private-key", value);
				provider = keyProvider(KeyProviderUtil.detectKeyFileFormat(file));
				provider.init(file, passphrase);
			}
			else {
				provider = keyProvider(KeyProviderUtil.detectKeyFileFormat(value, false));
				provider.init(value, null, passphrase);
			}
			// Decrypts and parses the key now, so a wrong passphrase or a broken key
			// stops start-up.
			provider.getPrivate();
			provider.getPublic();
			return provider;
		}
		catch (IOException | RuntimeException ex) {
			if (ex instanceof InvalidConfigurationException invalid) {
				throw invalid;
			}
			String shown = value.startsWith(SftpStorageProperties.FILE_PREFIX) ? value : null;
			throw new InvalidConfigurationException((properties.passphrase() != null) ? "passphrase" : "private-key",
					(properties.passphrase() != null) ? null : shown,
					"the private key cannot be loaded (" + ex.getClass().getSimpleName() + ": " + ex.getMessage()
							+ "); is the passphrase right, and is it a PEM, PKCS#8, OpenSSH or PuTTY key?");
		}
	}

	private static FileKeyProvider keyProvider(KeyFormat format) {
		FileKeyProvider provider = Factory.Named.Util.create(SftpConnector.config().getFileKeyProviderFactories(),
				format.toString());
		if (provider == null) {
			throw new InvalidConfigurationException("private-key", null, "is not a supported key format");
		}
		return provider;
	}

	private static File readableFile(String property, String value) {
		Path path = Path.of(value.substring(SftpStorageProperties.FILE_PREFIX.length()));
		if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
			throw new InvalidConfigurationException(property, value, "is not a readable file");
		}
		return path.toFile();
	}

}
