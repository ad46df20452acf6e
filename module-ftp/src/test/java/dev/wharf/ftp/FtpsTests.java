package dev.wharf.ftp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLSocket;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.Requirements;
import org.apache.commons.net.ftp.FTPFile;
import org.apache.commons.net.ftp.FTPSClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * FTPS: explicit ({@code AUTH TLS}) and implicit, TLS 1.2 and 1.3 only, required TLS, and
 * uploads that end without TLS {@code close_notify}.
 */
class FtpsTests {

	@TempDir
	Path temp;

	static byte[] random(int size) {
		return StorageTestSupport.randomBytes(7, 0, size);
	}

	static FTPSClient login(FtpTestServer server, boolean implicit) throws IOException {
		FTPSClient client = new FTPSClient(implicit, FtpTestServer.clientTls());
		FtpClients.configure(client);
		client.connect("127.0.0.1", server.port());
		assertThat(client.login(FtpTestServer.ALICE, FtpTestServer.password(FtpTestServer.ALICE)))
			.as(client.getReplyString())
			.isTrue();
		client.execPBSZ(0);
		client.execPROT("P");
		client.enterLocalPassiveMode();
		client.setFileType(FTPSClient.BINARY_FILE_TYPE);
		return client;
	}

	static void roundTrip(FtpTestServer server, FTPSClient client) throws IOException {
		byte[] content = random(2 * 1024 * 1024 + 3);
		assertThat(client.storeFile("secret.bin", new ByteArrayInputStream(content))).as(client.getReplyString())
			.isTrue();
		assertThat(server.dataRoot().resolve("secret.bin")).hasBinaryContent(content);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(client.retrieveFile("secret.bin", out)).as(client.getReplyString()).isTrue();
		assertThat(out.toByteArray()).isEqualTo(content);
		assertThat(client.listNames()).contains("secret.bin");
		assertThat(client.mlistDir()).isNotEmpty();
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void explicitAndImplicitFtpsTransferEncrypted(boolean implicit) throws IOException {
		try (FtpTestServer server = FtpTestServer.start(this.temp,
				options -> options.tls = implicit ? FtpTestServer.TlsMode.IMPLICIT : FtpTestServer.TlsMode.EXPLICIT)) {
			FTPSClient client = login(server, implicit);
			try {
				roundTrip(server, client);
				client.enterLocalActiveMode();
				client.setActiveExternalIPAddress("127.0.0.1");
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				assertThat(client.retrieveFile("secret.bin", out)).as(client.getReplyString()).isTrue();
				assertThat(out.size()).isEqualTo(2 * 1024 * 1024 + 3);
			}
			finally {
				FtpClients.close(client);
			}
		}
	}

	@Test
	void featAnnouncesOnlyWhatTheTlsModeOffers() throws IOException {
		try (FtpTestServer explicit = FtpTestServer.start(this.temp.resolve("e"),
				options -> options.tls = FtpTestServer.TlsMode.EXPLICIT);
				RawFtp ftp = RawFtp.connect(explicit.port())) {
			assertThat(ftp.command("FEAT")).contains("\n AUTH TLS\n").contains("\n PBSZ\n").contains("\n PROT\n");
		}
		try (FtpTestServer implicit = FtpTestServer.start(this.temp.resolve("i"),
				options -> options.tls = FtpTestServer.TlsMode.IMPLICIT)) {
			FTPSClient client = login(implicit, true);
			try {
				assertThat(client.features()).isTrue();
				assertThat(client.getReplyStrings()).contains(" PBSZ", " PROT")
					.noneMatch(line -> line.contains("AUTH"));
				assertThat(client.sendCommand("AUTH", "TLS")).isEqualTo(534);
			}
			finally {
				FtpClients.close(client);
			}
		}
	}

	@Test
	void requiredTlsRefusesPlainLoginsAndClearData() throws IOException {
		try (FtpTestServer server = FtpTestServer.start(this.temp, options -> {
			options.tls = FtpTestServer.TlsMode.EXPLICIT;
			options.tlsRequired = true;
		})) {
			try (RawFtp plain = RawFtp.connect(server.port())) {
				assertThat(plain.command("FEAT")).startsWith("211-");
				assertThat(plain.command("USER alice")).startsWith("530").contains("TLS");
				assertThat(plain.command("PASS alice-pw")).startsWith("530");
				assertThat(plain.command("PWD")).startsWith("530");
			}
			FTPSClient client = new FTPSClient(false, FtpTestServer.clientTls());
			FtpClients.configure(client);
			client.connect("127.0.0.1", server.port());
			try {
				assertThat(client.login(FtpTestServer.ALICE, FtpTestServer.password(FtpTestServer.ALICE))).isTrue();
				client.enterLocalPassiveMode();
				assertThat(client.sendCommand("PROT", "C")).isEqualTo(534);
				// Without PROT P, no data connection is opened.
				assertThat(client.listNames()).isNull();
				assertThat(client.getReplyCode()).isEqualTo(522);
				client.execPBSZ(0);
				client.execPROT("P");
				client.setFileType(FTPSClient.BINARY_FILE_TYPE);
				roundTrip(server, client);
			}
			finally {
				FtpClients.close(client);
			}
		}
	}

	@Test
	void anEncryptedUploadCutWithoutCloseNotifyIsNotStored() throws Exception {
		try (FtpTestServer server = FtpTestServer.start(this.temp,
				options -> options.tls = FtpTestServer.TlsMode.IMPLICIT)) {
			FTPSClient client = login(server, true);
			try {
				String reply = sendAndRead(client, "EPSV");
				Matcher matcher = Pattern.compile("\\|\\|\\|(\\d+)\\|").matcher(reply);
				assertThat(matcher.find()).isTrue();
				Socket plain = new Socket();
				plain.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(matcher.group(1))), 30_000);
				SSLSocket tls = (SSLSocket) FtpTestServer.clientTls()
					.getSocketFactory()
					.createSocket(plain, "127.0.0.1", plain.getPort(), false);
				tls.startHandshake();
				assertThat(client.sendCommand("STOR", "truncated.bin")).isEqualTo(150);
				tls.getOutputStream().write(new byte[300_000]);
				tls.getOutputStream().flush();
				// Close the TCP connection under the TLS session: no close_notify, as an
				// attacker's forged FIN.
				plain.close();
				assertThat(client.getReply()).isEqualTo(426);
			}
			finally {
				FtpClients.close(client);
			}
			assertThat(server.dataRoot().resolve("truncated.bin")).doesNotExist();
		}
	}

	private static String sendAndRead(FTPSClient client, String command) throws IOException {
		client.sendCommand(command);
		return client.getReplyString();
	}

	@Test
	void onlyTls12And13AreOffered() throws Exception {
		Path openssl = Requirements.requireExecutable("openssl", "openssl");
		try (FtpTestServer server = FtpTestServer.start(this.temp,
				options -> options.tls = FtpTestServer.TlsMode.IMPLICIT)) {
			assertThat(handshake(openssl, server, "-tls1_3")).contains("New, TLSv1.3,");
			assertThat(handshake(openssl, server, "-tls1_2")).contains("New, TLSv1.2,");
			// The client is allowed to offer the old protocols (so a refusal is the
			// server's): no session comes of it.
			assertRefused(handshake(openssl, server, "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"));
			assertRefused(handshake(openssl, server, "-tls1", "-cipher", "DEFAULT@SECLEVEL=0"));
		}
		try (FtpTestServer server = FtpTestServer.start(this.temp.resolve("explicit"),
				options -> options.tls = FtpTestServer.TlsMode.EXPLICIT)) {
			assertThat(handshake(openssl, server, "-starttls", "ftp", "-tls1_3")).contains("New, TLSv1.3,");
			assertThat(handshake(openssl, server, "-starttls", "ftp", "-tls1_2")).contains("New, TLSv1.2,")
				.contains("Cipher is ECDHE-ECDSA-AES256-GCM-SHA384");
			assertRefused(handshake(openssl, server, "-starttls", "ftp", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"));
			assertRefused(handshake(openssl, server, "-starttls", "ftp", "-tls1", "-cipher", "DEFAULT@SECLEVEL=0"));
			// CBC with SHA-1, which the JDK's defaults enable: outside the policy
			// (dev.wharf.core.tls.TlsPolicy).
			assertRefused(
					handshake(openssl, server, "-starttls", "ftp", "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA"));
			assertRefused(
					handshake(openssl, server, "-starttls", "ftp", "-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384"));
		}
	}

	@Test
	void dataConnectionsRefuseWeakSuitesToo() throws Exception {
		try (FtpTestServer server = FtpTestServer.start(this.temp,
				options -> options.tls = FtpTestServer.TlsMode.EXPLICIT)) {
			Files.writeString(server.dataRoot().resolve("file.txt"), "encrypted");
			FTPSClient client = login(server, false);
			try {
				assertThat(dataHandshake(client, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA")).isEqualTo("refused");
				assertThat(client.getReply()).isIn(425, 426);
				assertThat(dataHandshake(client, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")).isEqualTo("encrypted");
				assertThat(client.getReply()).isEqualTo(226);
			}
			finally {
				client.disconnect();
			}
		}
	}

	/** How a client spoils a {@code PROT P} data connection's TLS handshake. */
	enum SpoiledHandshake {

		/** Speaks plain text where the server expects a ClientHello. */
		PLAIN_TEXT,
		/** Sends the start of a TLS record, then closes the data socket mid-handshake. */
		CLOSED_MIDWAY,
		/** Offers only a suite the server's policy refuses (CBC with SHA-1). */
		REFUSED_SUITE

	}

	/**
	 * A data connection whose TLS handshake fails ends with one final reply, and the same
	 * session goes on: the next {@code RETR}, {@code LIST} and {@code STOR} get
	 * {@code 150} and {@code 226} with the right bytes, the failed {@code STOR} leaves no
	 * file, and the (single) passive port is free again each time.
	 */
	@ParameterizedTest
	@EnumSource(SpoiledHandshake.class)
	void aFailedDataHandshakeEndsTheTransferAndLeavesTheSessionUsable(SpoiledHandshake spoil) throws Exception {
		int port = FtpTransferTests.freePorts(1)[0];
		try (FtpTestServer server = FtpTestServer.start(this.temp, options -> {
			options.tls = FtpTestServer.TlsMode.EXPLICIT;
			options.passivePorts = Integer.toString(port);
		})) {
			byte[] content = random(300_000);
			Files.write(server.dataRoot().resolve("file.bin"), content);
			FTPSClient client = login(server, false);
			try {
				// The first data connection of the session fails.
				assertThat(spoiledTransfer(client, spoil, "RETR file.bin")).as(client::getReplyString).isIn(425, 426);
				assertWorks(server, client, content);
				// And again after a transfer that worked, this time an upload.
				assertThat(spoiledTransfer(client, spoil, "STOR spoiled.bin")).as(client::getReplyString)
					.isIn(425, 426);
				assertThat(spoiledTransfer(client, spoil, "LIST")).as(client::getReplyString).isIn(425, 426);
				assertWorks(server, client, content);
				try (var files = Files.list(server.dataRoot())) {
					assertThat(files.map(file -> file.getFileName().toString())).containsExactlyInAnyOrder("file.bin",
							"copy.bin");
				}
			}
			finally {
				FtpClients.close(client);
			}
		}
	}

	/**
	 * Hundreds of transfers whose data connection the client closes mid-handshake, one
	 * after another on one session and one passive port: each gets its final reply. About
	 * one in a hundred downloads or listings used to wait for ever (the send never
	 * ended), and the port, closed and opened again for each transfer, must be free again
	 * each time.
	 */
	@Test
	void everySpoiledHandshakeInARowGetsAFinalReply() throws Exception {
		int port = FtpTransferTests.freePorts(1)[0];
		try (FtpTestServer server = FtpTestServer.start(this.temp, options -> {
			options.tls = FtpTestServer.TlsMode.EXPLICIT;
			options.passivePorts = Integer.toString(port);
		})) {
			Files.write(server.dataRoot().resolve("file.bin"), random(300_000));
			FTPSClient client = login(server, false);
			// Well under the data timeout: a transfer that ends only by timing out fails
			// the test.
			client.setSoTimeout(10_000);
			try {
				String[] commands = { "STOR spoiled.bin", "RETR file.bin", "LIST" };
				for (int i = 0; i < 300; i++) {
					String command = commands[i % commands.length];
					assertThat(spoiledTransfer(client, SpoiledHandshake.CLOSED_MIDWAY, command)).as(command + " #" + i)
						.isIn(425, 426);
				}
				assertThat(server.dataRoot().resolve("spoiled.bin")).doesNotExist();
			}
			finally {
				FtpClients.close(client);
			}
		}
	}

	private static void assertWorks(FtpTestServer server, FTPSClient client, byte[] content) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(client.retrieveFile("file.bin", out)).as(client.getReplyString()).isTrue();
		assertThat(out.toByteArray()).isEqualTo(content);
		assertThat(client.listFiles()).extracting(FTPFile::getName).contains("file.bin");
		assertThat(client.getReplyCode()).as(client.getReplyString()).isEqualTo(226);
		assertThat(client.storeFile("copy.bin", new ByteArrayInputStream(content))).as(client.getReplyString())
			.isTrue();
		assertThat(server.dataRoot().resolve("copy.bin")).hasBinaryContent(content);
	}

	/**
	 * Runs a transfer command over a data connection whose handshake the client spoils.
	 * @return the final reply's code (after a {@code 150}, if one came)
	 */
	private static int spoiledTransfer(FTPSClient client, SpoiledHandshake spoil, String command) throws IOException {
		assertThat(client.sendCommand("EPSV")).as(client::getReplyString).isEqualTo(229);
		Matcher port = Pattern.compile("\\(\\|\\|\\|(\\d+)\\|\\)").matcher(client.getReplyString());
		assertThat(port.find()).isTrue();
		int first;
		try (Socket plain = new Socket("127.0.0.1", Integer.parseInt(port.group(1)))) {
			plain.setSoTimeout(30_000);
			first = client.sendCommand(command);
			switch (spoil) {
				case PLAIN_TEXT -> {
					plain.getOutputStream().write("hello, this is not TLS\r\n".getBytes(StandardCharsets.US_ASCII));
					plain.getOutputStream().flush();
					readToEnd(plain);
				}
				case CLOSED_MIDWAY -> {
					// A handshake record header announcing 512 bytes, then only 4 of
					// them.
					plain.getOutputStream()
						.write(new byte[] { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc });
					plain.getOutputStream().flush();
				}
				case REFUSED_SUITE -> {
					SSLSocket data = (SSLSocket) FtpTestServer.clientTls()
						.getSocketFactory()
						.createSocket(plain, "127.0.0.1", plain.getPort(), false);
					data.setUseClientMode(true);
					data.setEnabledProtocols(new String[] { "TLSv1.2" });
					data.setEnabledCipherSuites(new String[] { "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA" });
					assertThatThrownBy(data::startHandshake).isInstanceOf(IOException.class);
				}
			}
		}
		return (first == 150) ? client.getReply() : first;
	}

	private static void readToEnd(Socket socket) {
		try {
			socket.getInputStream().readAllBytes();
		}
		catch (IOException reset) {
			// The server gave up the connection: what the test waits for.
		}
	}

	/**
	 * A {@code PROT P} download over a data connection that offers only one suite: the
	 * content, or "refused".
	 */
	private static String dataHandshake(FTPSClient client, String suite) throws IOException {
		assertThat(client.sendCommand("EPSV")).as(client::getReplyString).isEqualTo(229);
		Matcher port = Pattern.compile("\\(\\|\\|\\|(\\d+)\\|\\)").matcher(client.getReplyString());
		assertThat(port.find()).isTrue();
		try (Socket plain = new Socket("127.0.0.1", Integer.parseInt(port.group(1)));
				SSLSocket data = (SSLSocket) FtpTestServer.clientTls()
					.getSocketFactory()
					.createSocket(plain, "127.0.0.1", plain.getPort(), true)) {
			data.setSoTimeout(30_000);
			data.setUseClientMode(true);
			data.setEnabledProtocols(new String[] { "TLSv1.2" });
			data.setEnabledCipherSuites(new String[] { suite });
			assertThat(client.sendCommand("RETR file.txt")).isEqualTo(150);
			try {
				data.startHandshake();
			}
			catch (IOException refused) {
				return "refused";
			}
			return new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static void assertRefused(String output) {
		assertThat(output).contains("New, (NONE), Cipher is (NONE)")
			.doesNotContain("no protocols available")
			.containsAnyOf("alert protocol version", "alert handshake failure", "unexpected eof");
	}

	/**
	 * Runs {@code openssl s_client} against a test server's control port and returns what
	 * it printed.
	 */
	static String handshake(Path openssl, FtpTestServer server, String... options) throws Exception {
		List<String> command = new ArrayList<>(List.of(openssl.toString(), "s_client", "-connect",
				"127.0.0.1:" + server.port(), "-servername", "localhost"));
		command.addAll(List.of(options));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		process.getOutputStream().close();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(60, TimeUnit.SECONDS)) {
			process.destroyForcibly();
		}
		return new String(output, StandardCharsets.UTF_8);
	}

}
