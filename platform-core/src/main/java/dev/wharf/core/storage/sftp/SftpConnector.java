package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.wharf.core.storage.BackendUnavailableException;
import com.hierynomus.sshj.transport.cipher.BlockCiphers;
import com.hierynomus.sshj.transport.cipher.GcmCiphers;
import com.hierynomus.sshj.transport.kex.DHGroups;
import com.hierynomus.sshj.transport.kex.ExtInfoClientFactory;
import com.hierynomus.sshj.transport.kex.ExtendedDHGroups;
import com.hierynomus.sshj.transport.mac.Macs;
import net.schmizz.keepalive.KeepAliveProvider;
import net.schmizz.sshj.Config;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.FileMode;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;
import net.schmizz.sshj.transport.cipher.Cipher;
import net.schmizz.sshj.transport.kex.Curve25519SHA256;
import net.schmizz.sshj.transport.kex.DHGexSHA256;
import net.schmizz.sshj.transport.kex.ECDHNistP;
import net.schmizz.sshj.transport.verification.HostKeyVerifier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Opens logged-in SFTP connections to one server: connects with a timeout, verifies the
 * host key, logs in, starts the SFTP channel and resolves the mount's root. Blocking;
 * called on the mount's I/O threads only. Thread-safe.
 */
final class SftpConnector {

	private static final Log logger = LogFactory.getLog(SftpConnector.class);

	static {
		SshjSecurity.apply();
	}

	/**
	 * sshj's algorithms with keep-alives that drop a connection whose server stopped
	 * answering.
	 */
	private static final Config CONFIG = newConfig();

	private final String mount;

	private final String host;

	private final int port;

	private final HostKeyVerifier hostKeyVerifier;

	private final String root;

	private final int connectTimeoutMillis;

	private final int readTimeoutMillis;

	private final int keepAliveSeconds;

	private final long windowSize;

	/**
	 * @param mount the mount's name, for messages
	 * @param host the server
	 * @param port its port
	 * @param hostKeyVerifier decides whether the server's host key is trusted
	 * @param root the root folder as configured; relative to the login's home folder
	 * unless absolute
	 * @param connectTimeout how long connecting may take
	 * @param readTimeout how long any answer may take
	 * @param keepAlive the keep-alive interval, or zero for none
	 * @param windowSize the SSH channel window in bytes: how much the server may send
	 * ahead of what was read, and so the most a channel buffers
	 */
	SftpConnector(String mount, String host, int port, HostKeyVerifier hostKeyVerifier, String root,
			Duration connectTimeout, Duration readTimeout, Duration keepAlive, long windowSize) {
		this.mount = mount;
		this.host = host;
		this.port = port;
		this.hostKeyVerifier = hostKeyVerifier;
		this.root = root;
		this.connectTimeoutMillis = (int) connectTimeout.toMillis();
		this.readTimeoutMillis = (int) readTimeout.toMillis();
		this.keepAliveSeconds = (int) keepAlive.toSeconds();
		this.windowSize = windowSize;
	}

	/**
	 * sshj's defaults without the algorithms that are broken or deprecated (SHA-1 key
	 * exchanges, DSA keys, CBC and other legacy ciphers, SHA-1 and MD5 MACs). AES-GCM
	 * comes first because the JDK accelerates it (about 40 % less CPU per byte than
	 * ChaCha20-Poly1305, which only BouncyCastle's plain Java code provides; see
	 * docs/benchmarks/sftp.md). Strict key exchange (the Terrapin fix) is always offered.
	 * Every OpenSSH since 6.5 (2014) agrees to these.
	 */
	private static Config newConfig() {
		DefaultConfig config = new DefaultConfig() {

			@Override
			protected void initCipherFactories() {
				// Set below. sshj's own list would be tried out here, each
				// cipher made and initialised once (ChaCha20-Poly1305 with
				// BouncyCastle), only to be replaced.
			}

		};
		config.setKeepAliveProvider(KeepAliveProvider.KEEP_ALIVE);
		config.setKeyExchangeFactories(new Curve25519SHA256.Factory(), new Curve25519SHA256.FactoryLibSsh(),
				new ECDHNistP.Factory256(), new ECDHNistP.Factory384(), new ECDHNistP.Factory521(),
				new DHGexSHA256.Factory(), DHGroups.Group16SHA512(), DHGroups.Group18SHA512(), DHGroups.Group14SHA256(),
				ExtendedDHGroups.Group14SHA256AtSSH(), ExtendedDHGroups.Group16SHA512AtSSH(),
				ExtendedDHGroups.Group18SHA512AtSSH(), new ExtInfoClientFactory());
		config.setKeyAlgorithms(
				config.getKeyAlgorithms().stream().filter(algorithm -> !algorithm.getName().contains("dss")).toList());
		config.setCipherFactories(
				List.<Factory.Named<Cipher>>of(GcmCiphers.AES128GCM(), GcmCiphers.AES256GCM(), new ChaChaPolyOnDemand(),
						BlockCiphers.AES128CTR(), BlockCiphers.AES192CTR(), BlockCiphers.AES256CTR()));
		config.setMACFactories(Macs.HMACSHA2256Etm(), Macs.HMACSHA2512Etm(), Macs.HMACSHA2256(), Macs.HMACSHA2512());
		return config;
	}

	/** sshj's shared configuration: algorithms, key formats, keep-alives. */
	static Config config() {
		return CONFIG;
	}

	/** The mount's name. */
	String mount() {
		return this.mount;
	}

	/** The server as {@code host:port}, for logs (never for client-facing messages). */
	String server() {
		return this.host + ":" + this.port;
	}

	/**
	 * Opens a connection.
	 * @param login who to log in as
	 * @return the connection, logged in, with its SFTP channel started and the root
	 * resolved
	 * @throws dev.wharf.core.storage.StorageException if connecting, the host key, the
	 * login or the root fails
	 */
	SftpConnection open(SftpLogin login) {
		SSHClient ssh = connect();
		try {
			ssh.auth(login.username(), login.methods());
			SftpEngine engine = new SftpEngine(ssh);
			engine.setTimeoutMs(this.readTimeoutMillis);
			engine.init();
			return new SftpConnection(ssh, engine, resolveRoot(engine));
		}
		catch (IOException | RuntimeException ex) {
			disconnect(ssh);
			throw SftpErrors.connectFailure(ex, this.mount, login.passthrough());
		}
	}

	/**
	 * Connects and verifies the host key without logging in, for health checks of mounts
	 * that have no login of their own.
	 * @throws dev.wharf.core.storage.StorageException if the server cannot be reached or
	 * is not trusted
	 */
	void checkReachable() {
		disconnect(connect());
	}

	private SSHClient connect() {
		SSHClient ssh = new SSHClient(CONFIG);
		try {
			ssh.addHostKeyVerifier(this.hostKeyVerifier);
			ssh.setConnectTimeout(this.connectTimeoutMillis);
			ssh.getTransport().setTimeoutMs(this.readTimeoutMillis);
			ssh.getConnection().setTimeoutMs(this.readTimeoutMillis);
			ssh.getConnection().getKeepAlive().setKeepAliveInterval(this.keepAliveSeconds);
			ssh.getConnection().setWindowSize(this.windowSize);
			ssh.connect(this.host, this.port);
			// SFTP is small requests and small window adjustments, each waiting for
			// an answer: with Nagle's algorithm (sshj leaves it on) a small message
			// behind an unacknowledged one waited for the server's delayed
			// acknowledgement, about 40 ms. A 256 KB window needs an adjustment every
			// 192 KB, which held reads of a 1 MB file to 5 MB/s.
			ssh.getSocket().setTcpNoDelay(true);
			return ssh;
		}
		catch (IOException | RuntimeException ex) {
			disconnect(ssh);
			throw SftpErrors.connectFailure(ex, this.mount, false);
		}
	}

	private String resolveRoot(SFTPEngine engine) throws IOException {
		String canonical;
		FileAttributes attributes;
		try {
			canonical = engine.canonicalize(this.root);
			attributes = engine.stat(canonical);
		}
		catch (SFTPException ex) {
			if (SftpErrors.isConnectionFailure(ex)) {
				throw ex;
			}
			logger.warn("Mount '" + this.mount + "': the root folder '" + this.root + "' cannot be opened on "
					+ server() + ": " + ex.getMessage());
			throw new BackendUnavailableException(
					"The root folder of mount '" + this.mount + "' is missing on the SFTP server or cannot be opened",
					ex);
		}
		if (attributes.getType() != FileMode.Type.DIRECTORY) {
			logger.warn("Mount '" + this.mount + "': the root '" + this.root + "' on " + server() + " is not a folder");
			throw new BackendUnavailableException(
					"The root of mount '" + this.mount + "' is not a folder on the SFTP server");
		}
		return canonical;
	}

	private static void disconnect(SSHClient ssh) {
		try {
			ssh.disconnect();
		}
		catch (IOException | RuntimeException ex) {
			// Dropping a connection that failed: nothing to keep.
		}
	}

}
