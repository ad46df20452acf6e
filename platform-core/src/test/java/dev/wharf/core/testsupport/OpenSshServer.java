package dev.wharf.core.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.fail;

/**
 * A real OpenSSH {@code sshd} on 127.0.0.1 and a free port, for tests of the {@code sftp}
 * backend and of protocols over it. It has its own throwaway host key, its own
 * {@code sshd_config} (no PAM, no strict modes, SFTP only, {@code internal-sftp}) and a
 * throwaway client key that every allowed user may log in with; password logins work for
 * system users with a password when the tests run as root (as in CI).
 *
 * <p>
 * One server per test class is enough ({@link PerClass} starts and stops it).
 * {@link #kill()} and {@link #start()} simulate a server that dies and comes back on the
 * same port with the same keys.
 */
public final class OpenSshServer implements AutoCloseable {

	/**
	 * The throwaway users that {@code .ci/run} creates for password and passthrough
	 * tests.
	 */
	public static final List<String> TEST_USERS = List.of("wharf-sftp-a", "wharf-sftp-b");

	private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

	private final Path sshd;

	private final Path directory;

	private final Path config;

	private final Path log;

	private final Path clientKey;

	private final String hostPublicKey;

	private final int port;

	private Process process;

	private OpenSshServer(Path sshd, Path directory, int port, List<String> settings)
			throws IOException, InterruptedException {
		this.sshd = sshd;
		this.directory = directory;
		this.port = port;
		Path hostKey = directory.resolve("ssh_host_ed25519_key");
		generateKey(hostKey, "", "wharf-test-host");
		this.hostPublicKey = Files.readString(directory.resolve("ssh_host_ed25519_key.pub"), StandardCharsets.US_ASCII)
			.strip();
		this.clientKey = directory.resolve("id_ed25519");
		generateKey(this.clientKey, "", "wharf-test-client");
		Files.copy(directory.resolve("id_ed25519.pub"), directory.resolve("authorized_keys"));
		this.log = directory.resolve("sshd.log");
		this.config = directory.resolve("sshd_config");
		List<String> users = new ArrayList<>(TEST_USERS);
		users.add(0, System.getProperty("user.name"));
		Files.writeString(this.config,
				String.join("\n", "ListenAddress 127.0.0.1:" + port, "HostKey " + hostKey, "PidFile none", "UsePAM no",
						"StrictModes no", "UseDNS no", "PermitRootLogin prohibit-password", "PubkeyAuthentication yes",
						"PasswordAuthentication yes", "KbdInteractiveAuthentication no", "PermitEmptyPasswords no",
						"AuthorizedKeysFile " + directory.resolve("authorized_keys"),
						"AllowUsers " + String.join(" ", users), "AllowTcpForwarding no", "X11Forwarding no",
						"PermitTTY no", "Subsystem sftp internal-sftp", "ForceCommand internal-sftp", "MaxStartups 200",
						"MaxSessions 100", "LogLevel INFO", String.join("\n", settings), ""));
	}

	/**
	 * Makes a server in a folder and starts it; fails (in CI) or skips the test if
	 * {@code sshd} is missing.
	 * @param directory an empty folder for keys, configuration and the log
	 * @return the running server
	 */
	public static OpenSshServer start(Path directory) throws IOException, InterruptedException {
		return start(directory, List.of());
	}

	/**
	 * Makes a server with settings of its own (such as {@code Ciphers …}) and starts it;
	 * fails (in CI) or skips the test if {@code sshd} is missing.
	 * @param directory an empty folder for keys, configuration and the log
	 * @param settings {@code sshd_config} lines added to the test server's own
	 * @return the running server
	 */
	public static OpenSshServer start(Path directory, List<String> settings) throws IOException, InterruptedException {
		Path sshd = Requirements.requireExecutable("sshd", "openssh-server");
		Requirements.requireExecutable("ssh-keygen", "openssh-client");
		if ("root".equals(System.getProperty("user.name"))) {
			// A root sshd needs its privilege separation folder, which a container may
			// lack.
			Files.createDirectories(Path.of("/run/sshd"));
		}
		OpenSshServer server = new OpenSshServer(sshd, directory, FreePorts.loopback(), settings);
		// Even a test run that is killed or times out must not leave an sshd behind.
		Runtime.getRuntime().addShutdownHook(new Thread(server::close, "wharf-test-sshd-stop"));
		server.start();
		return server;
	}

	/**
	 * Starts the server (again), on the same port with the same keys; waits until it
	 * answers.
	 */
	public synchronized void start() throws IOException, InterruptedException {
		if (this.process != null && this.process.isAlive()) {
			return;
		}
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (true) {
			this.process = new ProcessBuilder(this.sshd.toString(), "-D", "-f", this.config.toString(), "-E",
					this.log.toString())
				.redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("sshd.out").toFile())
				.start();
			if (Processes.awaitReady(this.process, left(deadline), Duration.ofMillis(50), this::answers)) {
				return;
			}
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			if (System.nanoTime() > deadline) {
				fail("sshd did not start; its output: " + Files.readString(this.directory.resolve("sshd.out"))
						+ "\nits log: " + logText());
			}
			// Usually the port is still held by the connections of a killed server: try
			// again once it is free.
			Processes.awaitFree(left(deadline), this.port);
		}
	}

	private static Duration left(long deadline) {
		return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
	}

	/** Whether the server sends its banner (not listening yet fails). */
	private boolean answers() throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 1000);
			socket.setSoTimeout(5000);
			InputStream in = socket.getInputStream();
			byte[] banner = new byte[8];
			return in.readNBytes(banner, 0, banner.length) == banner.length
					&& new String(banner, StandardCharsets.US_ASCII).startsWith("SSH-2.0");
		}
	}

	/** Kills the server and every session it has open, as a crash would. */
	public synchronized void kill() throws InterruptedException {
		if (this.process == null) {
			return;
		}
		List<ProcessHandle> all = new ArrayList<>(this.process.descendants().toList());
		all.add(this.process.toHandle());
		for (ProcessHandle handle : all) {
			handle.destroyForcibly();
		}
		for (ProcessHandle handle : all) {
			try {
				handle.onExit().get(10, TimeUnit.SECONDS);
			}
			catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
				// Already gone, or stuck in the kernel; nothing else to do.
			}
		}
	}

	/**
	 * Lets a further key log in.
	 * @param publicKey a {@code .pub} file
	 */
	public void authorize(Path publicKey) throws IOException {
		Files.writeString(this.directory.resolve("authorized_keys"), Files.readString(publicKey),
				java.nio.file.StandardOpenOption.APPEND);
	}

	/** The host to connect to. */
	public String host() {
		return "127.0.0.1";
	}

	/** The port. */
	public int port() {
		return this.port;
	}

	/** The user the tests run as, who may log in with {@link #clientKey()}. */
	public String user() {
		return System.getProperty("user.name");
	}

	/** The client's private key file (unencrypted OpenSSH format). */
	public Path clientKey() {
		return this.clientKey;
	}

	/** A {@code known_hosts} line that trusts this server's host key. */
	public String knownHostsLine() {
		return "[" + host() + "]:" + this.port + " " + keyTypeAndBlob(this.hostPublicKey);
	}

	/** The host key's SHA-256 fingerprint as {@code ssh-keygen -l} prints it. */
	public String hostKeyFingerprint() {
		return fingerprint(this.hostPublicKey);
	}

	/**
	 * Makes a key pair with {@code ssh-keygen}.
	 * @param file where the private key goes; the public key goes to {@code file.pub}
	 * @param passphrase the passphrase, or empty for none
	 * @param comment the key's comment
	 */
	public static void generateKey(Path file, String passphrase, String comment)
			throws IOException, InterruptedException {
		generateKey(file, passphrase, comment, "-t", "ed25519");
	}

	/**
	 * Makes a key pair with {@code ssh-keygen} and further options.
	 * @param file where the private key goes; the public key goes to {@code file.pub}
	 * @param passphrase the passphrase, or empty for none
	 * @param comment the key's comment
	 * @param options such as {@code -t rsa -b 3072 -m PEM}
	 */
	public static void generateKey(Path file, String passphrase, String comment, String... options)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of("ssh-keygen", "-q", "-N", passphrase, "-C", comment, "-f", file.toString()));
		command.addAll(List.of(options));
		Process keygen = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(keygen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!keygen.waitFor(30, TimeUnit.SECONDS) || keygen.exitValue() != 0) {
			fail("ssh-keygen failed: " + output);
		}
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
	}

	/**
	 * The SHA-256 fingerprint of a public key line ({@code type base64 comment}).
	 * @param publicKeyLine such as the content of an {@code .pub} file
	 * @return {@code SHA256:} and the unpadded base64 digest
	 */
	public static String fingerprint(String publicKeyLine) {
		byte[] blob = Base64.getDecoder().decode(publicKeyLine.strip().split("\\s+")[1]);
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob);
			return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String keyTypeAndBlob(String publicKeyLine) {
		String[] parts = publicKeyLine.strip().split("\\s+");
		return parts[0] + " " + parts[1];
	}

	/** How many logins the server has accepted since it was made (counted in its log). */
	public long acceptedLogins() {
		return logText().lines().filter(line -> line.contains("Accepted ")).count();
	}

	/** The server's log so far. */
	public String logText() {
		try {
			return Files.exists(this.log) ? Files.readString(this.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		try {
			kill();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Starts one server for a test class and stops it after the class, in a temporary
	 * folder of its own:
	 * {@code @RegisterExtension static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();}.
	 */
	public static final class PerClass extends PerClassServer<OpenSshServer> {

		/** Makes the extension. */
		public PerClass() {
			super(() -> OpenSshServer.start(Files.createTempDirectory("wharf-sshd")), (server) -> {
				server.close();
				FileSystemUtils.deleteRecursively(server.directory);
			});
		}

	}

}
