package dev.wharf.ftp;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.wharf.core.testsupport.Requirements;
import org.apache.commons.net.ftp.FTPSClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Clients that go away are not server errors: connections reset by the client (data and
 * control), replies written to a client that is gone (broken pipe), and TLS handshakes
 * that the client refuses or breaks off are logged as one line at DEBUG, never at WARN or
 * ERROR and never with a stack trace. MINA logged the first two at ERROR itself, its TLS
 * filter logged a refused handshake at ERROR with a stack trace, and Reactor Netty warned
 * about resets on data connections.
 */
class FtpDisconnectLoggingTests {

	@TempDir
	Path temp;

	private final LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();

	private final ListAppender<ILoggingEvent> events = new ListAppender<>();

	private Level wharfLevel;

	@BeforeEach
	void capture() {
		this.events.start();
		this.logging.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(this.events);
		Logger wharf = this.logging.getLogger("dev.wharf.ftp");
		this.wharfLevel = wharf.getLevel();
		wharf.setLevel(Level.DEBUG);
	}

	@AfterEach
	void release() {
		this.logging.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(this.events);
		this.logging.getLogger("dev.wharf.ftp").setLevel(this.wharfLevel);
	}

	@Test
	void connectionsResetByTheClientAreNotErrors() throws Exception {
		try (FtpTestServer server = FtpTestServer.start(this.temp)) {
			try (RandomAccessFile big = new RandomAccessFile(server.dataRoot().resolve("big.bin").toFile(), "rw")) {
				big.setLength(64L * 1024 * 1024);
			}
			try (RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE)) {
				// A download, then an upload, whose data connection the client resets.
				Socket data = ftp.passive();
				assertThat(ftp.command("RETR big.bin")).startsWith("150");
				assertThat(data.getInputStream().read(new byte[1024])).isPositive();
				reset(data);
				assertThat(ftp.reply()).startsWith("426");
				data = ftp.passive();
				assertThat(ftp.command("STOR up.bin")).startsWith("150");
				data.getOutputStream().write(new byte[256 * 1024]);
				reset(data);
				assertThat(ftp.reply()).startsWith("426");
				// The control connection reset while a download runs.
				try (Socket running = ftp.passive()) {
					assertThat(ftp.command("RETR big.bin")).startsWith("150");
					assertThat(running.getInputStream().read(new byte[1024])).isPositive();
					reset(ftp.socket());
				}
			}
			// Replies still being written to a client that reset: the writes fail (broken
			// pipe, reset).
			for (int i = 0; i < 5; i++) {
				RawFtp ftp = RawFtp.login(server.port(), FtpTestServer.ALICE);
				ftp.sendBytes("FEAT\r\n".repeat(60).getBytes(StandardCharsets.US_ASCII));
				reset(ftp.socket());
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> server.server().openConnections() == 0);
		}
		assertOnlyQuietLines();
		assertThat(wharfDebugLines()).anyMatch(line -> line.contains("reset"));
	}

	@Test
	void tlsHandshakesRefusedByTheClientAreNotErrors() throws Exception {
		Path openssl = Requirements.requireExecutable("openssl", "openssl");
		try (FtpTestServer server = FtpTestServer.start(this.temp,
				options -> options.tls = FtpTestServer.TlsMode.EXPLICIT)) {
			// The control connection's certificate refused: the JDK's default trust does
			// not know it.
			try (RawFtp ftp = RawFtp.connect(server.port())) {
				assertThat(ftp.command("AUTH TLS")).startsWith("234");
				SSLSocket tls = (SSLSocket) SSLContext.getDefault()
					.getSocketFactory()
					.createSocket(ftp.socket(), "127.0.0.1", server.port(), true);
				assertThatThrownBy(tls::startHandshake).isInstanceOf(IOException.class);
			}
			// A client that offers only TLS 1.1, which the server refuses. Such a
			// connection also kept its place in
			// the connection limits for ever: the count must come back to 0.
			assertThat(FtpsTests.handshake(openssl, server, "-starttls", "ftp", "-tls1_1", "-cipher",
					"DEFAULT@SECLEVEL=0"))
				.contains("Cipher is (NONE)");
			await().atMost(Duration.ofSeconds(30)).until(() -> server.server().openConnections() == 0);
			// A data connection whose certificate the client refuses, then one it closes
			// mid-handshake.
			FTPSClient client = FtpsTests.login(server, false);
			try {
				try (Socket data = passive(client)) {
					assertThat(client.sendCommand("LIST")).isEqualTo(150);
					SSLSocket tls = (SSLSocket) SSLContext.getDefault()
						.getSocketFactory()
						.createSocket(data, "127.0.0.1", data.getPort(), true);
					tls.setUseClientMode(true);
					assertThatThrownBy(tls::startHandshake).isInstanceOf(IOException.class);
				}
				assertThat(client.getReply()).isIn(425, 426);
				try (Socket data = passive(client)) {
					assertThat(client.sendCommand("LIST")).isEqualTo(150);
					data.getOutputStream()
						.write(new byte[] { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc });
					data.getOutputStream().flush();
				}
				assertThat(client.getReply()).isIn(425, 426);
			}
			finally {
				FtpClients.close(client);
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> server.server().openConnections() == 0);
		}
		assertOnlyQuietLines();
		assertThat(wharfDebugLines()).anyMatch(line -> line.contains("TLS"));
	}

	/** Nothing at WARN or above, and no stack trace at INFO or above. */
	private void assertOnlyQuietLines() {
		List<ILoggingEvent> logged = logged();
		assertThat(logged).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.extracting(FtpDisconnectLoggingTests::describe)
			.isEmpty();
		assertThat(logged)
			.filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.INFO) && event.getThrowableProxy() != null)
			.extracting(FtpDisconnectLoggingTests::describe)
			.isEmpty();
	}

	/** Wharf's DEBUG lines: one line each, without a stack trace. */
	private List<String> wharfDebugLines() {
		List<ILoggingEvent> debug = logged().stream()
			.filter(event -> event.getLevel() == Level.DEBUG && event.getLoggerName().startsWith("dev.wharf.ftp"))
			.toList();
		assertThat(debug).allSatisfy(event -> assertThat(event.getThrowableProxy()).as(describe(event)).isNull());
		return debug.stream().map(ILoggingEvent::getFormattedMessage).toList();
	}

	private List<ILoggingEvent> logged() {
		synchronized (this.events) {
			return new ArrayList<>(this.events.list);
		}
	}

	private static String describe(ILoggingEvent event) {
		return event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage()
				+ ((event.getThrowableProxy() != null) ? " / " + event.getThrowableProxy().getClassName() : "");
	}

	/** Closes a socket with a TCP reset instead of a FIN. */
	private static void reset(Socket socket) throws IOException {
		socket.setSoLinger(true, 0);
		socket.close();
	}

	private static Socket passive(FTPSClient client) throws IOException {
		assertThat(client.sendCommand("EPSV")).as(client::getReplyString).isEqualTo(229);
		Matcher port = Pattern.compile("\\(\\|\\|\\|(\\d+)\\|\\)").matcher(client.getReplyString());
		assertThat(port.find()).isTrue();
		Socket data = new Socket();
		data.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(port.group(1))), 30_000);
		data.setSoTimeout(30_000);
		return data;
	}

}
