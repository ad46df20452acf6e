package dev.wharf.ftp;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile clients against a running server, beyond {@link FtpSecurityTests} (which covers
 * raw {@code PORT} bounce, a thief before the rightful passive connection, traversal,
 * bare CR/LF/NUL in lines, overlong lines, idle timeouts and password guessing from one
 * address): bounce with a real client and through IPv4-mapped IPv6, passive stealing
 * during and after a transfer, passive-port flooding, names with quotes and line breaks
 * in replies, Telnet bytes in names, slowloris on the control channel, and the throttle
 * leaving other accounts and addresses alone. Everything runs on loopback;
 * {@code 127.0.0.2} plays the other host.
 */
class FtpHostileClientTests {

	private static final InetAddress OTHER_HOST = address("127.0.0.2");

	@TempDir
	static Path temp;

	static FtpTestServer server;

	@BeforeAll
	static void start() throws IOException {
		server = FtpTestServer.start(temp.resolve("server"));
		Files.write(server.dataRoot().resolve("big.bin"), FtpsTests.random(4 * 1024 * 1024));
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void commandsSentAheadOfTheirRepliesAreAnsweredInOrder() throws IOException {
		// Some run on MINA's I/O thread (USER, PASS, TYPE, PWD, NOOP), the others on
		// command threads: one write
		// mixes both, and PASS may go on asynchronously (a password check that is not
		// cached).
		try (RawFtp ftp = RawFtp.connect(server.port())) {
			ftp.send(String.join("\r\n", "USER " + FtpTestServer.ALICE,
					"PASS " + FtpTestServer.password(FtpTestServer.ALICE), "TYPE I", "MKD pipelined", "PWD", "NOOP",
					"CWD pipelined", "PWD", "TYPE A", "CWD /", "NOOP"));
			assertThat(ftp.reply()).startsWith("331");
			assertThat(ftp.reply()).startsWith("230");
			assertThat(ftp.reply()).startsWith("200");
			assertThat(ftp.reply()).startsWith("257").contains("pipelined");
			assertThat(ftp.reply()).startsWith("257 \"/\"");
			assertThat(ftp.reply()).startsWith("200");
			assertThat(ftp.reply()).startsWith("250");
			assertThat(ftp.reply()).startsWith("257 \"/pipelined\"");
			assertThat(ftp.reply()).startsWith("200");
			assertThat(ftp.reply()).startsWith("250");
			assertThat(ftp.reply()).startsWith("200");
		}
		assertThat(server.dataRoot().resolve("pipelined")).isDirectory();
	}

	@Test
	void commonsNetPortAndEprtToAnotherHostAreRefused() throws IOException {
		FTPClient client = FtpClients.login(server, FtpTestServer.ALICE);
		try (ServerSocket victim = new ServerSocket(0, 5, OTHER_HOST)) {
			victim.setSoTimeout(1000);
			assertThat(client.port(OTHER_HOST, victim.getLocalPort())).isEqualTo(501);
			assertThat(client.eprt(OTHER_HOST, victim.getLocalPort())).isEqualTo(501);
			// The same host spelled as IPv4-mapped IPv6, and the client's own address so
			// spelled: both refused.
			assertThat(client.sendCommand("EPRT |2|::ffff:127.0.0.2|" + victim.getLocalPort() + "|")).isEqualTo(501);
			assertThat(client.sendCommand("EPRT |2|::ffff:127.0.0.1|" + victim.getLocalPort() + "|")).isEqualTo(501);
			assertThat(client.sendCommand(
					"PORT 127,000,000,002," + (victim.getLocalPort() >> 8) + "," + (victim.getLocalPort() & 0xff)))
				.isEqualTo(501);
			assertThat(client.sendCommand("LIST")).isEqualTo(503);
			try (Socket contacted = victim.accept()) {
				throw new AssertionError("The server connected to a third host: " + contacted);
			}
			catch (SocketTimeoutException expected) {
				// Nobody came.
			}
			// Active mode to the client's own address still works with the same client.
			client.enterLocalActiveMode();
			assertThat(client.listNames()).contains("big.bin");
		}
		finally {
			FtpClients.close(client);
		}
	}

	@Test
	void aPassiveThiefIsRefusedDuringAndAfterTheRightfulTransfer() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = ftp.passive()) {
			int port = data.getPort();
			assertThat(ftp.command("RETR big.bin")).startsWith("150");
			InputStream in = data.getInputStream();
			byte[] first = in.readNBytes(64 * 1024);
			// While the rightful transfer runs: another host, and the same host with no
			// session waiting.
			assertThat(steal(OTHER_HOST, port)).as("thief from another host").isEqualTo(-1);
			assertThat(steal(address("127.0.0.1"), port)).as("thief from the client's host").isEqualTo(-1);
			byte[] rest = in.readAllBytes();
			assertThat(ftp.reply()).startsWith("226");
			byte[] all = Arrays.copyOf(first, first.length + rest.length);
			System.arraycopy(rest, 0, all, first.length, rest.length);
			assertThat(all).isEqualTo(FtpsTests.random(4 * 1024 * 1024));
			assertThat(steal(OTHER_HOST, port)).as("thief after the transfer").isEqualTo(-1);
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void passivePortFloodingHoldsNoListenersAndOthersStillTransfer() throws IOException {
		try (RawFtp flooder = RawFtp.login(server.port(), FtpTestServer.BOB)) {
			for (int i = 0; i < 20; i++) {
				assertThat(flooder.command("EPSV")).startsWith("229");
			}
			long before = openFiles();
			for (int i = 0; i < 300; i++) {
				assertThat(flooder.command("EPSV")).startsWith("229");
			}
			// Each EPSV gives up the session's previous port: 300 of them leave no pile
			// of listening sockets.
			assertThat(openFiles()).isLessThan(before + 50);
			try (RawFtp other = RawFtp.login(server.port(), FtpTestServer.ALICE); Socket data = other.passive()) {
				assertThat(other.command("NLST")).startsWith("150");
				assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
					.contains("big.bin");
				assertThat(other.reply()).startsWith("226");
			}
		}
	}

	@Test
	void quotesInNamesAreDoubledIn257Replies() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			assertThat(ftp.command("MKD say \"hi\"")).isEqualTo("257 \"/say \"\"hi\"\"\" created.");
			assertThat(ftp.command("CWD say \"hi\"")).startsWith("250");
			assertThat(ftp.command("PWD")).isEqualTo("257 \"/say \"\"hi\"\"\" is the current directory.");
			assertThat(ftp.command("MKD \"")).isEqualTo("257 \"/say \"\"hi\"\"/\"\"\" created.");
			assertThat(ftp.command("RNFR \"")).startsWith("350");
			assertThat(ftp.command("RNTO \"\"")).startsWith("250");
			assertThat(ftp.command("RMD \"x")).startsWith("550").contains("\"x");
		}
		assertThat(server.dataRoot().resolve("say \"hi\"/\"\"")).isDirectory();
	}

	@Test
	void namesWithLineBreaksOnTheDiskCannotSplitAReply() throws IOException {
		Path folder = Files.createDirectories(server.dataRoot().resolve("odd"));
		Files.writeString(folder.resolve("evil\r\n226 forged"), "x");
		Files.writeString(folder.resolve("plain.txt"), "x");
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			for (String command : List.of("STAT odd", "MLST odd", "STAT odd/plain.txt")) {
				String reply = ftp.command(command);
				assertThat(reply).as(command).startsWith("2");
				String code = reply.substring(0, 3);
				for (String line : reply.split("\n")) {
					assertThat(line).as(command)
						.satisfiesAnyOf(l -> assertThat(l).startsWith(code), l -> assertThat(l).startsWith(" "));
					assertThat(line).as(command).doesNotContain("\r");
				}
			}
			assertThat(ftp.command("NOOP")).startsWith("200");
			try (Socket data = ftp.passive()) {
				assertThat(ftp.command("NLST odd")).startsWith("150");
				String listing = new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				assertThat(listing).contains("plain.txt").doesNotContain("226 forged\r\n");
				assertThat(ftp.reply()).startsWith("226");
			}
		}
	}

	@Test
	void telnetBytesInNamesCreateNothingOdd() throws IOException {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			// An escaped IAC is the byte 0xFF, never UTF-8: refused.
			ftp.sendBytes(new byte[] { 'M', 'K', 'D', ' ', 't', (byte) 0xff, (byte) 0xff, '1', '\r', '\n' });
			assertThat(ftp.reply()).startsWith("501");
			// Telnet commands (IAC IP, IAC WILL <option>) belong to the Telnet layer and
			// are removed from the line.
			ftp.sendBytes(new byte[] { 'M', 'K', 'D', ' ', 't', (byte) 0xff, (byte) 0xf4, '2', '\r', '\n' });
			assertThat(ftp.reply()).isEqualTo("257 \"/t2\" created.");
			ftp.sendBytes(new byte[] { 'M', 'K', 'D', ' ', 't', (byte) 0xff, (byte) 0xfb, '\r', '3', '\r', '\n' });
			assertThat(ftp.reply()).isEqualTo("257 \"/t3\" created.");
			// An option byte that is a line end still ends the line: what follows is a
			// command of its own.
			ftp.sendBytes(new byte[] { 'M', 'K', 'D', ' ', 't', '4', (byte) 0xff, (byte) 0xfb, '\n', 'N', 'O', 'O', 'P',
					'\r', '\n' });
			assertThat(ftp.reply()).isEqualTo("257 \"/t4\" created.");
			assertThat(ftp.reply()).startsWith("200");
		}
		try (var names = Files.list(server.dataRoot())) {
			assertThat(names.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("t")))
				.containsExactlyInAnyOrder("t2", "t3", "t4");
		}
	}

	@Test
	void aCommandSplitAcrossReadsIsOneCommand() throws Exception {
		try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
			ftp.socket().setTcpNoDelay(true);
			ftp.sendBytes("MKD spl".getBytes(StandardCharsets.US_ASCII));
			// Pauses between the pieces, so the server reads them apart; nothing to wait
			// for.
			Thread.sleep(300);
			ftp.sendBytes("it\r".getBytes(StandardCharsets.US_ASCII));
			Thread.sleep(300);
			ftp.sendBytes("\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(ftp.reply()).isEqualTo("257 \"/split\" created.");
			assertThat(ftp.command("NOOP")).startsWith("200");
		}
	}

	@Test
	void aCommandLineTrickledByteByByteIsCutOffAndOthersAreServed() throws Exception {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("slowloris"),
				options -> options.idleTimeout = Duration.ofSeconds(2)); RawFtp slow = RawFtp.connect(own.port())) {
			// One byte every half second: always active for the idle timeout, never a
			// whole line.
			int sent = 0;
			String reply = "";
			while (sent < 60) {
				try {
					slow.sendBytes(new byte[] { 'a' });
				}
				catch (IOException closed) {
					break;
				}
				sent++;
				if (slow.socket().getInputStream().available() > 0) {
					reply = slow.reply();
					break;
				}
				// A client too slow on purpose: a byte every half second.
				Thread.sleep(500);
			}
			if (reply.isEmpty()) {
				slow.socket().setSoTimeout(30_000);
				reply = slow.reply();
			}
			assertThat(reply).startsWith("421").contains("too slow");
			assertThat(slow.isClosedByServer()).isTrue();
			assertThat(sent).as("bytes sent before the cut").isLessThan(60);
			try (RawFtp other = RawFtp.login(own.port(), FtpTestServer.ALICE)) {
				assertThat(other.command("NOOP")).startsWith("200");
			}
		}
	}

	@Test
	void noopsCannotKeepAConnectionThatNeverLogsIn() throws Exception {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("login-deadline"),
				options -> options.idleTimeout = Duration.ofSeconds(2));
				RawFtp lingering = RawFtp.connect(own.port())) {
			String reply = "";
			for (int i = 0; i < 60 && !reply.startsWith("421"); i++) {
				reply = lingering.command("NOOP");
				// A client that keeps the connection busy with a NOOP every half second,
				// never logging in.
				Thread.sleep(500);
			}
			assertThat(reply).startsWith("421");
			assertThat(lingering.isClosedByServer()).isTrue();
		}
	}

	@Test
	void aThrottledAccountAndAddressLeaveOtherAccountsAndAddressesAlone() throws IOException {
		try (FtpTestServer own = FtpTestServer.start(temp.resolve("throttle"))) {
			// Six wrong passwords for alice from 127.0.0.1: more than the free tries for
			// that account there.
			for (int connection = 0; connection < 2; connection++) {
				try (RawFtp ftp = RawFtp.connect(own.port())) {
					for (int i = 0; i < 3; i++) {
						assertThat(ftp.command("USER " + FtpTestServer.ALICE)).startsWith("331");
						assertThat(ftp.command("PASS wrong")).startsWith("530");
					}
				}
			}
			try (RawFtp ftp = RawFtp.connect(own.port())) {
				assertThat(ftp.command("USER " + FtpTestServer.ALICE)).startsWith("331");
				assertThat(ftp.command("PASS " + FtpTestServer.password(FtpTestServer.ALICE))).startsWith("421");
			}
			// Another account from the same address, and the same account from another
			// address: let in.
			assertThat(loginFrom(own, address("127.0.0.1"), FtpTestServer.BOB)).isTrue();
			assertThat(loginFrom(own, OTHER_HOST, FtpTestServer.ALICE)).isTrue();
		}
	}

	private static boolean loginFrom(FtpTestServer server, InetAddress local, String user) throws IOException {
		FTPClient client = new FTPClient();
		FtpClients.configure(client);
		client.connect(InetAddress.getByName("127.0.0.1"), server.port(), local, 0);
		try {
			assertThat(FTPReply.isPositiveCompletion(client.getReplyCode())).isTrue();
			return client.login(user, FtpTestServer.password(user));
		}
		finally {
			FtpClients.close(client);
		}
	}

	/**
	 * Connects to a passive port from an address.
	 * @return what the first read gives: -1 once the server closes, or if nothing listens
	 * any more
	 */
	private static int steal(InetAddress from, int port) throws IOException {
		try (Socket thief = new Socket()) {
			thief.bind(new InetSocketAddress(from, 0));
			try {
				thief.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
			}
			catch (ConnectException notListening) {
				return -1;
			}
			thief.setSoTimeout(30_000);
			return thief.getInputStream().read();
		}
	}

	private static long openFiles() throws IOException {
		try (var files = Files.list(Path.of("/proc/self/fd"))) {
			return files.count();
		}
	}

	private static InetAddress address(String literal) {
		try {
			return InetAddress.getByName(literal);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
