package dev.wharf.ftp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.wharf.core.testsupport.Requirements;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transfer path: {@code ABOR} during a transfer, uploads that never leave half a file
 * (aborted, killed client, dropped control or data connection), readers that see the old
 * version until an upload completes, many transfers without a thread each, and passive
 * ports shared by sessions.
 */
class FtpTransferTests {

	static final byte[] V1 = "version one".getBytes(StandardCharsets.UTF_8);

	@TempDir
	static Path temp;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws IOException {
		server = FtpTestServer.start(temp.resolve("server"));
		try (RandomAccessFile big = new RandomAccessFile(server.dataRoot().resolve("big.bin").toFile(), "rw")) {
			big.setLength(1L << 30);
		}
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	/**
	 * Nothing at the path and no temporary file anywhere in the mount, once the server
	 * has cleaned up.
	 */
	static void awaitNothingLeft(String name) {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(server.dataRoot().resolve(name)).doesNotExist();
			try (Stream<Path> files = Files.walk(server.dataRoot())) {
				assertThat(files.map(path -> path.getFileName().toString()))
					.noneMatch(file -> file.startsWith(".wharf"));
			}
		});
	}

	@Test
	void aborDuringALargeDownloadIsAnsweredAtOnce() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			assertThat(ftp.command("RETR big.bin")).startsWith("150");
			// The client reads nothing, so the gigabyte cannot be sent: the replies can
			// only come from the abort.
			assertThat(data.getInputStream().read(new byte[1024])).isPositive();
			ftp.send("ABOR");
			assertThat(ftp.reply()).startsWith("426");
			assertThat(ftp.reply()).startsWith("226");
			assertThat(drain(data.getInputStream())).isLessThan(1L << 30);
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void aborAfterTelnetInterruptAndSynchIsUnderstood() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			assertThat(ftp.command("RETR big.bin")).startsWith("150");
			// What lftp and the BSD client send (RFC 959 section 4.1.3): IAC IP, then IAC
			// DM as urgent data.
			ftp.sendBytes(new byte[] { (byte) 0xff, (byte) 0xf4, (byte) 0xff });
			ftp.socket().sendUrgentData(0xf2);
			ftp.send("ABOR");
			assertThat(ftp.reply()).startsWith("426");
			assertThat(ftp.reply()).startsWith("226");
			drain(data.getInputStream());
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void aborDuringAnUploadLeavesNothing() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			assertThat(ftp.command("STOR aborted.bin")).startsWith("150");
			data.getOutputStream().write(new byte[1024 * 1024]);
			ftp.send("ABOR");
			assertThat(ftp.reply()).startsWith("426");
			assertThat(ftp.reply()).startsWith("226");
		}
		awaitNothingLeft("aborted.bin");
	}

	/**
	 * {@code ABOR} sent in the same packet as {@code STOR}, so it arrives before the
	 * transfer began: the upload is aborted ({@code 426}, then {@code 226}) and nothing
	 * is stored, whether the client then closes the data connection (as one whose small
	 * file was sent at once does) or keeps it open. Such an {@code ABOR} used to wait
	 * behind the upload: the closed upload was committed and the {@code ABOR} answered
	 * {@code 225}, the open one held both replies until the data timeout.
	 */
	@Test
	void aborSentWithStorAbortsTheUploadBeforeItBegins() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			// Well under the data timeout: an ABOR that waits for the transfer fails the
			// test.
			ftp.socket().setSoTimeout(5_000);
			for (int i = 0; i < 40; i++) {
				try (Socket data = ftp.passive()) {
					ftp.sendBytes("STOR raced.bin\r\nABOR\r\n".getBytes(StandardCharsets.US_ASCII));
					try {
						data.getOutputStream().write(V1);
						if (i % 2 == 0) {
							data.close();
						}
					}
					catch (SocketException abortedFirst) {
						// The server may have aborted and reset the data connection
						// before these bytes were sent.
					}
					String reply = ftp.reply();
					// A 150 may come first only if the transfer began before the ABOR was
					// read.
					String transfer = reply.startsWith("150") ? ftp.reply() : reply;
					assertThat(transfer).as("try %d", i).startsWith("426");
					assertThat(ftp.reply()).as("try %d", i).startsWith("226");
				}
				assertThat(server.dataRoot().resolve("raced.bin")).as("try %d", i).doesNotExist();
			}
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
		awaitNothingLeft("raced.bin");
	}

	@Test
	void aClientKilledDuringAnUploadLeavesNothing() throws Exception {
		Path python = Requirements.requireExecutable("python3", "python3");
		String script = String.join("\n", "import ftplib, sys", "f = ftplib.FTP()",
				"f.connect('127.0.0.1', int(sys.argv[1]), timeout=60)", "f.login('alice', 'alice-pw')",
				"f.voidcmd('TYPE I')", "conn = f.transfercmd('STOR killed.bin')", "chunk = b'k' * 65536", "while True:",
				"    conn.sendall(chunk)");
		Process client = new ProcessBuilder(python.toString(), "-c", script, Integer.toString(server.port()))
			.redirectErrorStream(true)
			.start();
		try {
			// Kill it in the middle: once the upload's temporary file holds data.
			await().atMost(Duration.ofSeconds(60)).until(() -> temporaryFileSize() > 1024 * 1024);
		}
		finally {
			client.destroyForcibly();
			client.waitFor(30, TimeUnit.SECONDS);
		}
		awaitNothingLeft("killed.bin");
	}

	private static long temporaryFileSize() throws IOException {
		try (Stream<Path> files = Files.list(server.dataRoot())) {
			return files.filter(path -> path.getFileName().toString().startsWith(".wharf")).mapToLong(path -> {
				try {
					return Files.size(path);
				}
				catch (IOException gone) {
					return 0;
				}
			}).sum();
		}
	}

	@Test
	void aClosedControlConnectionDuringAnUploadLeavesNothing() throws IOException {
		RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE);
		try (Socket data = ftp.passive()) {
			assertThat(ftp.command("STOR dropped.bin")).startsWith("150");
			OutputStream out = data.getOutputStream();
			out.write(new byte[512 * 1024]);
			ftp.close();
			try {
				out.write(new byte[512 * 1024]);
			}
			catch (IOException closedByServer) {
				// The server may already have closed the data connection.
			}
		}
		awaitNothingLeft("dropped.bin");
	}

	@Test
	void aResetDataConnectionFailsTheUploadAndKeepsTheOldVersion() throws IOException {
		Files.write(server.dataRoot().resolve("kept.txt"), V1);
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			Socket data = ftp.passive();
			assertThat(ftp.command("STOR kept.txt")).startsWith("150");
			data.getOutputStream().write(new byte[256 * 1024]);
			data.setSoLinger(true, 0);
			data.close();
			assertThat(ftp.reply()).startsWith("426");
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
		assertThat(server.dataRoot().resolve("kept.txt")).hasBinaryContent(V1);
	}

	@Test
	void readersSeeTheOldVersionUntilAnUploadCompletes() throws IOException {
		Files.write(server.dataRoot().resolve("versioned.txt"), V1);
		byte[] v2 = new byte[2 * 1024 * 1024];
		Arrays.fill(v2, (byte) '2');
		try (RawFtp writer = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			Socket data = writer.passive();
			assertThat(writer.command("STOR versioned.txt")).startsWith("150");
			data.getOutputStream().write(v2, 0, v2.length / 2);
			try (RawFtp reader = RawFtp.login(server.port(), FtpTestServer.BOB); Socket readData = reader.passive()) {
				assertThat(reader.command("RETR versioned.txt")).startsWith("150");
				assertThat(readData.getInputStream().readAllBytes()).isEqualTo(V1);
				assertThat(reader.reply()).startsWith("226");
			}
			data.getOutputStream().write(v2, v2.length / 2, v2.length / 2);
			data.close();
			assertThat(writer.reply()).startsWith("226");
		}
		assertThat(server.dataRoot().resolve("versioned.txt")).hasBinaryContent(v2);
	}

	@Test
	void manyConcurrentTransfersDoNotTakeAThreadEach() throws IOException {
		int transfers = 60;
		int threadsBefore = Thread.activeCount();
		List<RawFtp> sessions = new ArrayList<>();
		List<Socket> channels = new ArrayList<>();
		try {
			for (int i = 0; i < transfers; i++) {
				RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.BOB);
				sessions.add(ftp);
				channels.add(ftp.passive());
				assertThat(ftp.command("RETR big.bin")).startsWith("150");
			}
			// Every transfer is under way at once: each client received data.
			for (Socket channel : channels) {
				assertThat(channel.getInputStream().read(new byte[4096])).isPositive();
			}
			int threadsDuring = Thread.activeCount();
			assertThat(threadsDuring - threadsBefore).as("threads added for %d transfers", transfers)
				.isLessThan(transfers / 2);
			for (RawFtp ftp : sessions) {
				ftp.send("ABOR");
				assertThat(ftp.reply()).startsWith("426");
				assertThat(ftp.reply()).startsWith("226");
			}
		}
		finally {
			for (Socket channel : channels) {
				channel.close();
			}
			for (RawFtp ftp : sessions) {
				ftp.close();
			}
		}
	}

	@Test
	void sessionsShareAFewPassivePorts() throws IOException {
		int[] ports = freePorts(2);
		String range = ports[0] + "," + ports[1];
		try (FtpTestServer shared = FtpTestServer.start(temp.resolve("shared"),
				options -> options.passivePorts = range)) {
			Files.writeString(shared.dataRoot().resolve("f.txt"), "shared port");
			List<RawFtp> sessions = new ArrayList<>();
			try {
				for (int i = 0; i < 6; i++) {
					sessions.add(RawFtp.login(shared.port(), FtpTestServer.ALICE));
				}
				for (int round = 0; round < 3; round++) {
					for (RawFtp ftp : sessions) {
						try (Socket data = ftp.passive()) {
							assertThat(data.getPort()).isIn(ports[0], ports[1]);
							assertThat(ftp.command("RETR f.txt")).startsWith("150");
							assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
								.isEqualTo("shared port");
							assertThat(ftp.reply()).startsWith("226");
						}
					}
				}
			}
			finally {
				for (RawFtp ftp : sessions) {
					ftp.close();
				}
			}
		}
	}

	@Test
	void aPortWaitingForOneSessionIsNotGivenToAnotherFromTheSameAddress() throws IOException {
		withOnePassivePort("single", (single, port, first, second) -> {
			assertThat(first.command("PASV")).startsWith("227").contains("," + (port >> 8) + "," + (port & 0xff) + ")");
			assertThat(second.command("EPSV")).startsWith("425");
			try (Socket data = new Socket("127.0.0.1", port)) {
				data.setSoTimeout(30_000);
				assertThat(first.command("NLST")).startsWith("150");
				data.getInputStream().readAllBytes();
				assertThat(first.reply()).startsWith("226");
			}
			assertThat(second.command("EPSV")).startsWith("229 Entering Extended Passive Mode (|||" + port + "|)");
		});
	}

	@Test
	void aPassivePortStopsListeningSoonAfterNoSessionWaitsOnIt() throws IOException {
		withOnePassivePort("idle", (single, port, first, second) -> {
			Files.writeString(single.dataRoot().resolve("f.txt"), "one port");
			assertThat(listening(port)).isFalse();
			try (Socket data = first.passive()) {
				// The connection arrived: nobody waits on the port any more, so it stops
				// listening after a moment, while the transfer goes on over the
				// connection it accepted.
				await().atMost(Duration.ofSeconds(10)).until(() -> !listening(port));
				assertThat(first.command("RETR f.txt")).startsWith("150");
				// Another session gets the same port while that connection still holds
				// it.
				try (Socket other = second.passive()) {
					assertThat(other.getPort()).isEqualTo(port);
					assertThat(second.command("RETR f.txt")).startsWith("150");
					assertThat(new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
						.isEqualTo("one port");
					assertThat(second.reply()).startsWith("226");
				}
				assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
					.isEqualTo("one port");
				assertThat(first.reply()).startsWith("226");
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> !listening(port));
		});
	}

	@Test
	void transfersOneAfterAnotherShareOneListeningPassivePort() throws IOException {
		int[] ports = freePorts(20);
		String range = String.join(",", Arrays.stream(ports).mapToObj(Integer::toString).toList());
		try (FtpTestServer shared = FtpTestServer.start(temp.resolve("reuse"), options -> options.passivePorts = range);
				RawFtp first = RawFtp.login(shared.port(), FtpTestServer.ALICE);
				RawFtp second = RawFtp.login(shared.port(), FtpTestServer.ALICE)) {
			Files.writeString(shared.dataRoot().resolve("f.txt"), "reused");
			Set<Integer> used = new HashSet<>();
			for (int i = 0; i < 10; i++) {
				RawFtp ftp = (i % 2 == 0) ? first : second;
				try (Socket data = ftp.passive()) {
					used.add(data.getPort());
					assertThat(ftp.command("RETR f.txt")).startsWith("150");
					assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
						.isEqualTo("reused");
					assertThat(ftp.reply()).startsWith("226");
				}
			}
			// The port that was listening already served every transfer: none opened a
			// listener of its own.
			assertThat(used).hasSize(1);
		}
	}

	@Test
	void aListeningPassivePortThatNobodyWaitsOnClosesConnectionsAtOnce() throws IOException {
		withOnePassivePort("stray", (single, port, first, second) -> {
			Files.writeString(single.dataRoot().resolve("f.txt"), "mine");
			try (Socket data = first.passive()) {
				assertThat(first.command("RETR f.txt")).startsWith("150");
				assertThat(data.getInputStream().readAllBytes()).hasSize(4);
				assertThat(first.reply()).startsWith("226");
			}
			// Nobody waits on the port, which still listens for the next transfer: a
			// connection from the client's own address is accepted and closed at once,
			// and no session gets it.
			try (Socket stray = new Socket("127.0.0.1", port)) {
				stray.setSoTimeout(5_000);
				assertThat(stray.getInputStream().read()).isEqualTo(-1);
			}
			try (Socket data = second.passive()) {
				assertThat(data.getPort()).isEqualTo(port);
				assertThat(second.command("RETR f.txt")).startsWith("150");
				assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("mine");
				assertThat(second.reply()).startsWith("226");
			}
		});
	}

	/**
	 * Runs a test against a server with a single passive port and two sessions of alice's
	 * on it.
	 */
	private static void withOnePassivePort(String folder, TwoSessions test) throws IOException {
		int port = freePorts(1)[0];
		try (FtpTestServer single = FtpTestServer.start(temp.resolve(folder),
				options -> options.passivePorts = Integer.toString(port));
				RawFtp first = RawFtp.login(single.port(), FtpTestServer.ALICE);
				RawFtp second = RawFtp.login(single.port(), FtpTestServer.ALICE)) {
			test.run(single, port, first, second);
		}
	}

	@FunctionalInterface
	private interface TwoSessions {

		void run(FtpTestServer server, int port, RawFtp first, RawFtp second) throws IOException;

	}

	/**
	 * Whether something accepts connections on a port of 127.0.0.1 (call only while no
	 * session waits on it).
	 */
	private static boolean listening(int port) {
		try (Socket probe = new Socket("127.0.0.1", port)) {
			return true;
		}
		catch (IOException refused) {
			return false;
		}
	}

	static int[] freePorts(int count) throws IOException {
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			for (int i = 0; i < count; i++) {
				sockets.add(new ServerSocket(0));
			}
			return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
		}
		finally {
			for (ServerSocket socket : sockets) {
				socket.close();
			}
		}
	}

	private static long drain(InputStream in) throws IOException {
		long total = 0;
		byte[] buffer = new byte[64 * 1024];
		int n;
		while ((n = in.read(buffer)) >= 0) {
			total += n;
		}
		return total;
	}

}
