package dev.wharf.ftp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Safe defaults, tried with raw control connections: no bounce through {@code PORT}, no
 * stolen passive connections, throttled password guessing, traversal refused, nothing
 * injected through names or lines, idle and data timeouts, connection limits.
 */
class FtpSecurityTests {

	static final String CANARY = "canary-" + Long.toHexString(Double.doubleToLongBits(Math.random()));

	@TempDir
	static Path temp;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws IOException {
		server = FtpTestServer.start(temp.resolve("server"), options -> options.dataTimeout = Duration.ofSeconds(2));
		// A secret next to the mount's root, where a traversal would land.
		Files.writeString(temp.resolve("server/secret.txt"), CANARY);
		Files.createDirectories(server.dataRoot().resolve("dir/sub"));
		Files.writeString(server.dataRoot().resolve("dir/sub/file.txt"), "inside");
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void portAndEprtToAnotherAddressAreRefusedAndNothingIsContacted() throws IOException {
		try (ServerSocket victim = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.2"));
				RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			victim.setSoTimeout(1000);
			int port = victim.getLocalPort();
			assertThat(ftp.command("PORT 127,0,0,2," + (port >> 8) + "," + (port & 0xff))).startsWith("501");
			assertThat(ftp.command("LIST")).startsWith("503");
			assertThat(ftp.command("EPRT |1|127.0.0.2|" + port + "|")).startsWith("501");
			assertThat(ftp.command("RETR dir/sub/file.txt")).startsWith("503");
			assertThat(ftp.command("EPRT |2|::1|" + port + "|")).startsWith("501");
			assertThat(ftp.command("EPRT |3|x|1|")).startsWith("522");
			// The client's own address, but a privileged port (RFC 2577 section 3).
			assertThat(ftp.command("PORT 127,0,0,1,0,22")).startsWith("501");
			assertThat(ftp.command("EPRT |1|127.0.0.1|21|")).startsWith("501");
			try (Socket contacted = victim.accept()) {
				throw new AssertionError("The server connected to a third host: " + contacted);
			}
			catch (SocketTimeoutException expected) {
				// Nobody came.
			}
		}
	}

	@Test
	void activeModeStillWorksToTheClientsOwnAddress() throws IOException {
		try (ServerSocket client = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
				RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			client.setSoTimeout(30_000);
			assertThat(ftp.command("EPRT |1|127.0.0.1|" + client.getLocalPort() + "|")).startsWith("200");
			assertThat(ftp.command("RETR dir/sub/file.txt")).startsWith("150");
			try (Socket data = client.accept()) {
				assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
					.isEqualTo("inside");
			}
			assertThat(ftp.reply()).startsWith("226");
		}
	}

	@Test
	void aPassivePortAcceptsOnlyTheSessionsClient() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			String reply = ftp.command("EPSV");
			int port = Integer.parseInt(reply.replaceAll(".*\\|\\|\\|(\\d+)\\|.*", "$1"));
			try (Socket thief = new Socket()) {
				thief.bind(new InetSocketAddress("127.0.0.2", 0));
				thief.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
				thief.setSoTimeout(10_000);
				assertThat(thief.getInputStream().read()).as("the thief is disconnected").isEqualTo(-1);
			}
			try (Socket data = new Socket("127.0.0.1", port)) {
				data.setSoTimeout(30_000);
				assertThat(ftp.command("RETR dir/sub/file.txt")).startsWith("150");
				assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
					.isEqualTo("inside");
				assertThat(ftp.reply()).startsWith("226");
			}
		}
	}

	@Test
	void passwordGuessingIsThrottledForEveryoneFromThatAddress() throws IOException {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("throttle"))) {
			int failures = 0;
			while (failures < 6) {
				try (RawFtp ftp = RawFtp.connect(own.port())) {
					for (int i = 0; i < 3 && failures < 6; i++) {
						assertThat(ftp.command("USER " + FtpTestServer.ALICE)).startsWith("331");
						String reply = ftp.command("PASS guess-" + failures);
						failures++;
						assertThat(reply).startsWith("530");
					}
				}
			}
			try (RawFtp ftp = RawFtp.connect(own.port())) {
				assertThat(ftp.command("USER " + FtpTestServer.ALICE)).startsWith("331");
				String reply = ftp.command("PASS " + FtpTestServer.password(FtpTestServer.ALICE));
				assertThat(reply).startsWith("421").contains("try again in");
				assertThat(ftp.isClosedByServer()).isTrue();
			}
		}
	}

	@Test
	void aConnectionIsClosedAfterThreeFailedLogins() throws IOException {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("three")); RawFtp ftp = RawFtp.connect(own.port())) {
			for (int i = 1; i <= 3; i++) {
				assertThat(ftp.command("USER " + FtpTestServer.BOB)).startsWith("331");
				assertThat(ftp.command("PASS wrong")).startsWith("530");
			}
			assertThat(ftp.isClosedByServer()).isTrue();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "CWD ../..", "CWD ..\\..", "CWD /../", "CWD dir/../..", "CWD ./dir", "SIZE ../secret.txt",
			"MDTM ..\\secret.txt", "MKD a//b", "DELE ../secret.txt", "RNFR ../secret.txt", "MLST /..", "STAT ../",
			"MKD .wharf-tmp-x", "CWD dir\\sub" })
	void traversalIsRefused(String command) throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			assertThat(ftp.command(command)).startsWith("553").doesNotContain(CANARY);
			assertThat(ftp.command("PWD")).isEqualTo("257 \"/\" is the current directory.");
		}
		assertThat(temp.resolve("server/secret.txt")).hasContent(CANARY);
		assertThat(server.dataRoot().resolve("a")).doesNotExist();
	}

	@ParameterizedTest
	@ValueSource(strings = { "RETR ../secret.txt", "RETR ../../secret.txt", "RETR ..\\secret.txt", "LIST ..",
			"NLST ../", "MLSD ..", "STOR ../evil.txt", "APPE ../secret.txt", "RETR /../secret.txt" })
	void transfersThroughTraversalAreRefusedBeforeAnyData(String command) throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			assertThat(ftp.command(command)).startsWith("553");
			assertThat(readUntilClosed(data.getInputStream())).asString(StandardCharsets.UTF_8).doesNotContain(CANARY);
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
		assertThat(temp.resolve("server/evil.txt")).doesNotExist();
		assertThat(temp.resolve("server/secret.txt")).hasContent(CANARY);
	}

	/**
	 * What a data connection delivers until the server closes it. A refused transfer's
	 * connection may end with a reset instead of an end of stream: the passive port stops
	 * listening once no session waits on it, and the kernel resets a connection still
	 * queued on a listener that closes.
	 */
	private static byte[] readUntilClosed(InputStream in) throws IOException {
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				read.write(buffer, 0, n);
			}
		}
		catch (SocketException ex) {
			if (!String.valueOf(ex.getMessage()).contains("Connection reset")) {
				throw ex;
			}
		}
		return read.toByteArray();
	}

	@Test
	void cwdDotDotIsCdupButNeverAboveTheRoot() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			assertThat(ftp.command("CWD dir/sub")).startsWith("250");
			assertThat(ftp.command("CWD ..")).startsWith("250");
			assertThat(ftp.command("PWD")).contains("\"/dir\"");
			assertThat(ftp.command("CDUP")).startsWith("250");
			assertThat(ftp.command("CWD ..")).startsWith("550");
			assertThat(ftp.command("CDUP")).startsWith("550");
			assertThat(ftp.command("PWD")).contains("\"/\"");
		}
	}

	@Test
	void rawBytesThatAreNotCleanUtf8AreRefused() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			ftp.sendBytes(
					new byte[] { 'M', 'K', 'D', ' ', (byte) 0xc0, (byte) 0xae, (byte) 0xc0, (byte) 0xae, '\r', '\n' });
			assertThat(ftp.reply()).startsWith("501");
			ftp.sendBytes("MKD a\0b\r\n".getBytes(StandardCharsets.ISO_8859_1));
			assertThat(ftp.reply()).startsWith("501");
			ftp.sendBytes("MKD a%2e%2e\r\n".getBytes(StandardCharsets.ISO_8859_1));
			assertThat(ftp.reply()).startsWith("257");
			assertThat(server.dataRoot().resolve("a%2e%2e")).isDirectory();
		}
	}

	@Test
	void aLineBreakInsideACommandCannotForgeAReplyOrAName() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			// A bare CR inside a line is refused; the LF ends the line, so "226 forged"
			// is a command of its own.
			ftp.sendBytes("MKD x\r226 forged\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(ftp.reply()).startsWith("501");
			ftp.sendBytes("MKD y\n226 forged\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(ftp.reply()).startsWith("257 \"/y\"");
			assertThat(ftp.reply()).startsWith("502");
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
		try (var names = Files.list(server.dataRoot())) {
			assertThat(names.map(path -> path.getFileName().toString()))
				.noneMatch(name -> name.contains("forged") || name.contains("\r"));
		}
	}

	@Test
	void anOverlongLineIsRefusedAndTheConnectionClosed() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			byte[] line = new byte[100_000];
			Arrays.fill(line, (byte) 'a');
			ftp.sendBytes(line);
			assertThat(ftp.reply()).startsWith("500");
			assertThat(ftp.isClosedByServer()).isTrue();
		}
	}

	@Test
	void onlyLoginCommandsAndFeatWorkBeforeLogin() throws IOException {
		try (RawFtp ftp = RawFtp.connect(server.port())) {
			assertThat(ftp.command("FEAT")).startsWith("211-").endsWith("211 End");
			assertThat(ftp.command("NOOP")).startsWith("200");
			for (String command : new String[] { "PWD", "LIST", "CWD dir", "RETR dir/sub/file.txt", "PASV", "STOR x",
					"MKD x", "SIZE x", "STAT", "SITE HELP" }) {
				assertThat(ftp.command(command)).as(command).startsWith("530");
			}
			assertThat(ftp.command("PASS alice-pw")).startsWith("503");
		}
	}

	@Test
	void aPassivePortNobodyConnectsToTimesOut() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			assertThat(ftp.command("EPSV")).startsWith("229");
			assertThat(ftp.command("RETR dir/sub/file.txt")).startsWith("150");
			assertThat(ftp.reply()).startsWith("425");
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void aStalledDownloadIsCutAfterTheDataTimeout() throws IOException {
		Files.write(server.dataRoot().resolve("stall.bin"), new byte[32 * 1024 * 1024]);
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			data.setReceiveBufferSize(4096);
			assertThat(ftp.command("RETR stall.bin")).startsWith("150");
			// Never read: the server cannot send, and gives up once the data timeout
			// passed without progress.
			assertThat(ftp.reply()).startsWith("426");
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void idleControlConnectionsAreClosedButNotDuringATransfer() throws Exception {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("idle"), options -> {
			options.idleTimeout = Duration.ofSeconds(1);
			options.dataTimeout = Duration.ofSeconds(20);
		})) {
			Files.write(own.dataRoot().resolve("slow.bin"), new byte[8 * 1024 * 1024]);
			try (RawFtp ftp = RawFtp.login(own.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
				assertThat(ftp.command("RETR slow.bin")).startsWith("150");
				// Read slowly for longer than the idle timeout: the control connection
				// must stay.
				InputStream in = data.getInputStream();
				byte[] buffer = new byte[256 * 1024];
				long read = 0;
				long end = System.nanoTime() + Duration.ofMillis(2500).toNanos();
				while (System.nanoTime() < end) {
					int n = in.read(buffer);
					if (n < 0) {
						break;
					}
					read += n;
					// A slow reader: time passes between reads, nothing to wait for.
					Thread.sleep(50);
				}
				read += in.readAllBytes().length;
				assertThat(read).isEqualTo(8 * 1024 * 1024);
				assertThat(ftp.reply()).startsWith("226");
				// Then silence: closed with 421.
				String reply = ftp.reply();
				assertThat(reply).startsWith("421");
				assertThat(ftp.isClosedByServer()).isTrue();
			}
		}
	}

	@Test
	void connectionsPerAddressAreLimited() throws IOException {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("limits"),
				options -> options.maxConnectionsPerAddress = 2);
				RawFtp first = RawFtp.connect(own.port());
				RawFtp second = RawFtp.connect(own.port())) {
			try (Socket third = new Socket("127.0.0.1", own.port())) {
				third.setSoTimeout(30_000);
				ByteArrayOutputStream greeting = new ByteArrayOutputStream();
				third.getInputStream().transferTo(greeting);
				assertThat(greeting.toString(StandardCharsets.UTF_8)).startsWith("421");
			}
			assertThat(first.command("NOOP")).startsWith("200");
			first.close();
			// A slot is free again once the server noticed the close.
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
				try (Socket probe = new Socket("127.0.0.1", own.port())) {
					probe.setSoTimeout(30_000);
					return probe.getInputStream().read() == '2';
				}
			});
		}
	}

}
