package dev.wharf.core.storage.sftp;

import java.time.Duration;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Properties of an {@code sftp} mount. Exactly one way to trust the server's host key is
 * required ({@code known-hosts}, {@code host-key-fingerprint}, or the unsafe
 * {@code insecure-accept-any-host-key}).
 *
 * @param host the SSH server's host name or address
 * @param port its port
 * @param username the login name ({@code credentials: fixed} only)
 * @param password the login password ({@code credentials: fixed} only); may be combined
 * with a key
 * @param privateKey a private key for the login: {@code file:/path/to/key} or the key
 * itself in PEM or OpenSSH format ({@code -----BEGIN ...}) ({@code credentials: fixed}
 * only)
 * @param passphrase the private key's passphrase, if it is encrypted
 * @param knownHosts the server's host keys in OpenSSH {@code known_hosts} format:
 * {@code file:/path} or the lines themselves; read once at start-up
 * @param hostKeyFingerprint the server's host key fingerprint as {@code ssh-keygen -l}
 * prints it ({@code SHA256:...}); MD5 and SHA-1 fingerprints are refused as too weak
 * @param insecureAcceptAnyHostKey accept whatever host key the server presents. UNSAFE:
 * anyone who can intercept the connection can read and change every file and learn the
 * password; for tests only
 * @param root the folder on the server that the mount exposes; a relative path is
 * relative to the login's home folder. Nothing outside it is reachable, links included
 * @param connectTimeout how long connecting may take
 * @param readTimeout how long to wait for any answer of the server (handshake, login,
 * each request); a connection that misses it is dropped
 * @param keepAlive how often an idle connection sends a keep-alive, so a dead server is
 * noticed and firewalls keep the connection open; {@code 0} switches keep-alives off
 * @param poolSize most SSH connections per login (for the mount with fixed credentials,
 * per user with passthrough); concurrent operations share them
 * @param idleTimeout connections unused for this long are closed
 * @param credentials {@code fixed}: the mount logs in with its own username and password
 * or key; {@code passthrough}: it logs in as the Wharf user who makes each request, with
 * the name and password that user logged in to Wharf with
 * @param maxUsers with passthrough, most users with open connections at once; the least
 * recently active user's connections are closed first
 * @param ioThreads most threads making blocking SSH calls for this mount; 0 means
 * {@value #IO_THREADS_PER_CONNECTION} (4 unless set; the p128 JVM profile sets 1) per
 * pooled connection, at least {@value #MIN_DEFAULT_IO_THREADS}
 */
public record SftpStorageProperties(@Nullable String host, @DefaultValue("22") int port, @Nullable String username,
		@Nullable String password, @Nullable String privateKey, @Nullable String passphrase,
		@Nullable String knownHosts, @Nullable String hostKeyFingerprint,
		@DefaultValue("false") boolean insecureAcceptAnyHostKey, @DefaultValue(".") String root,
		@DefaultValue("10s") Duration connectTimeout, @DefaultValue("30s") Duration readTimeout,
		@DefaultValue("30s") Duration keepAlive, @DefaultValue("4") int poolSize,
		@DefaultValue("5m") Duration idleTimeout, @DefaultValue("fixed") CredentialsMode credentials,
		@DefaultValue("100") int maxUsers, @DefaultValue("0") int ioThreads) {

	/**
	 * The property, for every sftp mount at once, that sets how many I/O threads each
	 * pooled connection gets when a mount leaves {@code io-threads} at 0. The p128 JVM
	 * profile sets it, as a profile cannot name the mounts.
	 */
	public static final String IO_THREADS_PER_CONNECTION = "wharf.storage.sftp.io-threads-per-connection";

	/**
	 * The property, for every sftp mount at once, that sets the SSH channel window: how
	 * much the server may send before Wharf has read it, which is also the most an SFTP
	 * channel buffers (sshj grows a channel's buffer up to it, in the heap). Default 2 MB
	 * (sshj's), 64 KB to 16 MB; the p128 JVM profile sets 256 KB. On a network with a
	 * long round trip a smaller window lowers a connection's rate: at most the window per
	 * round trip.
	 */
	public static final String WINDOW_SIZE = "wharf.storage.sftp.window-size";

	/**
	 * I/O threads per pooled connection unless {@link #IO_THREADS_PER_CONNECTION} says.
	 */
	static final int DEFAULT_IO_THREADS_PER_CONNECTION = 4;

	/** The fewest I/O threads a mount gets when {@code io-threads} is 0. */
	static final int MIN_DEFAULT_IO_THREADS = 8;

	/** Prefix of a value that names a file instead of holding the content. */
	static final String FILE_PREFIX = "file:";

	private static final Pattern SHA256_FINGERPRINT = Pattern.compile("SHA256:[A-Za-z0-9+/]{43}=?");

	private static final Duration LONGEST_TIMEOUT = Duration.ofHours(1);

	public SftpStorageProperties {
		if (host == null || host.isBlank()) {
			throw new InvalidConfigurationException("host", null, "an sftp mount needs the SSH server's host");
		}
		if (port < 1 || port > 65535) {
			throw new InvalidConfigurationException("port", Integer.toString(port), "must be 1 to 65535");
		}
		checkLogin(credentials, username, password, privateKey, passphrase);
		checkHostKeyTrust(knownHosts, hostKeyFingerprint, insecureAcceptAnyHostKey);
		if (root.isEmpty() || root.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
			throw new InvalidConfigurationException("root", null,
					"must be a folder on the server, without control characters");
		}
		checkTimeout("connect-timeout", connectTimeout);
		checkTimeout("read-timeout", readTimeout);
		if (keepAlive.isNegative() || keepAlive.compareTo(LONGEST_TIMEOUT) > 0
				|| (!keepAlive.isZero() && keepAlive.toSeconds() < 1)) {
			throw new InvalidConfigurationException("keep-alive", keepAlive.toString(), "must be 0 (off) or 1s to 1h");
		}
		if (poolSize < 1 || poolSize > 64) {
			throw new InvalidConfigurationException("pool-size", Integer.toString(poolSize), "must be 1 to 64");
		}
		if (idleTimeout.compareTo(Duration.ofSeconds(1)) < 0 || idleTimeout.compareTo(Duration.ofDays(1)) > 0) {
			throw new InvalidConfigurationException("idle-timeout", idleTimeout.toString(), "must be 1s to 1d");
		}
		if (maxUsers < 1 || maxUsers > 100_000) {
			throw new InvalidConfigurationException("max-users", Integer.toString(maxUsers), "must be 1 to 100000");
		}
		if (ioThreads < 0 || ioThreads > 1024) {
			throw new InvalidConfigurationException("io-threads", Integer.toString(ioThreads), "must be 0 to 1024");
		}
	}

	private static void checkLogin(CredentialsMode credentials, @Nullable String username, @Nullable String password,
			@Nullable String privateKey, @Nullable String passphrase) {
		if (credentials == CredentialsMode.PASSTHROUGH) {
			for (String[] property : new String[][] { { "username", username }, { "password", password },
					{ "private-key", privateKey }, { "passphrase", passphrase } }) {
				if (property[1] != null) {
					throw new InvalidConfigurationException(property[0], null,
							"must not be set with credentials: passthrough (each user logs in as themselves)");
				}
			}
			return;
		}
		if (username == null || username.isBlank()) {
			throw new InvalidConfigurationException("username", null,
					"an sftp mount with credentials: fixed needs a username");
		}
		if ((password == null || password.isEmpty()) && (privateKey == null || privateKey.isBlank())) {
			throw new InvalidConfigurationException("password", null,
					"an sftp mount with credentials: fixed needs a password or a private-key");
		}
		if (privateKey != null && !privateKey.startsWith(FILE_PREFIX) && !privateKey.strip().startsWith("-----BEGIN ")
				&& !privateKey.strip().startsWith("PuTTY-User-Key-File-")) {
			throw new InvalidConfigurationException("private-key", null,
					"must be file:/path/to/key or the key itself (starting with -----BEGIN)");
		}
		if (passphrase != null && privateKey == null) {
			throw new InvalidConfigurationException("passphrase", null, "is set but there is no private-key");
		}
	}

	private static void checkHostKeyTrust(@Nullable String knownHosts, @Nullable String fingerprint, boolean insecure) {
		int ways = ((knownHosts != null) ? 1 : 0) + ((fingerprint != null) ? 1 : 0) + (insecure ? 1 : 0);
		if (ways == 0) {
			throw new InvalidConfigurationException("known-hosts", null,
					"the server's host key must be verified: set known-hosts (file:/path/known_hosts) or "
							+ "host-key-fingerprint (SHA256:... as ssh-keygen -l prints it)");
		}
		if (ways > 1) {
			throw new InvalidConfigurationException((knownHosts != null) ? "known-hosts" : "host-key-fingerprint", null,
					"set only one of known-hosts, host-key-fingerprint and insecure-accept-any-host-key");
		}
		if (fingerprint != null && !SHA256_FINGERPRINT.matcher(fingerprint).matches()) {
			throw new InvalidConfigurationException("host-key-fingerprint", fingerprint,
					"must be a SHA256 fingerprint as ssh-keygen -l prints it (SHA256: and 43 base64 characters); "
							+ "MD5 and SHA-1 fingerprints are too weak");
		}
	}

	private static void checkTimeout(String property, Duration timeout) {
		if (timeout.toMillis() < 100 || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
			throw new InvalidConfigurationException(property, timeout.toString(), "must be 100ms to 1h");
		}
	}

	/**
	 * The number of I/O threads to use.
	 * @param perConnection threads per pooled connection when {@code io-threads} is 0
	 * @return the number of threads
	 */
	int effectiveIoThreads(int perConnection) {
		return (this.ioThreads > 0) ? this.ioThreads : Math.max(MIN_DEFAULT_IO_THREADS, perConnection * this.poolSize);
	}

	/** Shows every setting except secrets. */
	@Override
	public String toString() {
		return "SftpStorageProperties[host=" + this.host + ", port=" + this.port + ", username=" + this.username
				+ ", password=" + hidden(this.password) + ", privateKey="
				+ ((this.privateKey != null && this.privateKey.startsWith(FILE_PREFIX)) ? this.privateKey
						: hidden(this.privateKey))
				+ ", passphrase=" + hidden(this.passphrase) + ", root=" + this.root + ", credentials="
				+ this.credentials + "]";
	}

	private static String hidden(@Nullable String secret) {
		return (secret != null) ? "(hidden)" : "(none)";
	}

	/** Whose login a mount uses. */
	public enum CredentialsMode {

		/** The mount's own username and password or key. */
		FIXED,

		/** The name and password of the Wharf user who makes the request. */
		PASSTHROUGH

	}

}
