package dev.wharf.ftp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A control connection driven byte by byte, for what FTP libraries will not send: raw
 * bytes, bad commands, {@code ABOR} at a chosen moment. Replies are read whole
 * (multi-line replies included).
 */
public final class RawFtp implements AutoCloseable {

	private static final Pattern EPSV = Pattern.compile("\\(\\|\\|\\|(\\d+)\\|\\)");

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RawFtp(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
		this.out = socket.getOutputStream();
	}

	/**
	 * Connects and reads the greeting.
	 * @param port the control port
	 * @return the connection
	 */
	public static RawFtp connect(int port) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
		socket.setSoTimeout(30_000);
		RawFtp ftp = new RawFtp(socket);
		assertThat(ftp.reply()).startsWith("220");
		return ftp;
	}

	/**
	 * Connects and logs in.
	 * @param port the control port
	 * @param user a test user
	 * @return the connection
	 */
	public static RawFtp login(int port, String user) throws IOException {
		RawFtp ftp = connect(port);
		assertThat(ftp.command("USER " + user)).startsWith("331");
		assertThat(ftp.command("PASS " + FtpTestServer.password(user))).startsWith("230");
		assertThat(ftp.command("TYPE I")).startsWith("200");
		return ftp;
	}

	/** The underlying socket. */
	public Socket socket() {
		return this.socket;
	}

	/** Sends a command line (CRLF added) and reads its reply. */
	public String command(String line) throws IOException {
		send(line);
		return reply();
	}

	/** Sends a command line (CRLF added) without reading. */
	public void send(String line) throws IOException {
		sendBytes((line + "\r\n").getBytes(StandardCharsets.UTF_8));
	}

	/** Sends raw bytes. */
	public void sendBytes(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
	}

	/**
	 * Reads one reply, all its lines.
	 * @return the reply, lines joined with LF; empty if the connection closed
	 */
	public String reply() throws IOException {
		String first = line();
		if (first == null) {
			return "";
		}
		if (first.length() < 4 || first.charAt(3) != '-') {
			return first;
		}
		StringBuilder reply = new StringBuilder(first);
		String code = first.substring(0, 3);
		String next;
		do {
			next = line();
			if (next == null) {
				break;
			}
			reply.append('\n').append(next);
		}
		while (!(next.startsWith(code) && next.length() > 3 && next.charAt(3) == ' '));
		return reply.toString();
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != -1) {
			if (b == '\n') {
				byte[] bytes = line.toByteArray();
				int length = (bytes.length > 0 && bytes[bytes.length - 1] == '\r') ? bytes.length - 1 : bytes.length;
				return new String(bytes, 0, length, StandardCharsets.UTF_8);
			}
			line.write(b);
		}
		return (line.size() == 0) ? null : line.toString(StandardCharsets.UTF_8);
	}

	/**
	 * Sends {@code EPSV} and connects to the announced port.
	 * @return the data socket
	 */
	public Socket passive() throws IOException {
		String reply = command("EPSV");
		Matcher matcher = EPSV.matcher(reply);
		assertThat(matcher.find()).as(reply).isTrue();
		Socket data = new Socket();
		data.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(matcher.group(1))), 30_000);
		data.setSoTimeout(30_000);
		return data;
	}

	/**
	 * Whether the server closed the connection (reads to the end; call after the last
	 * expected reply).
	 */
	public boolean isClosedByServer() throws IOException {
		try {
			return this.in.read() == -1;
		}
		catch (IOException ex) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
