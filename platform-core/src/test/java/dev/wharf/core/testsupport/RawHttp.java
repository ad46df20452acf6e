package dev.wharf.core.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One HTTP/1.1 connection over a plain socket to a server on 127.0.0.1, for tests that
 * need every byte as written: requests go out unchanged (raw targets, hostile headers,
 * {@code Expect: 100-continue} played step by step, a body cut short), and responses are
 * parsed by hand, including one that ends before its announced length. Not thread-safe;
 * always closed by its test.
 */
public final class RawHttp implements Closeable {

	/**
	 * How long a connect or a read may block: generous, the machine is shared by several
	 * builds.
	 */
	public static final Duration PATIENCE = Duration.ofSeconds(30);

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RawHttp(Socket socket) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = socket.getOutputStream();
	}

	/**
	 * Connects.
	 * @param port the server's port on 127.0.0.1
	 * @return the connection
	 */
	public static RawHttp open(int port) throws IOException {
		return open(port, null, 0);
	}

	/**
	 * Connects from a given loopback address: another client, as far as the server can
	 * tell.
	 * @param port the server's port on 127.0.0.1
	 * @param localAddress such as {@code 127.0.0.2}, or {@code null} for any
	 * @return the connection
	 */
	public static RawHttp open(int port, @Nullable String localAddress) throws IOException {
		return open(port, localAddress, 0);
	}

	/**
	 * Connects with a small receive buffer, set before connecting: what the test does not
	 * read stays on the server, which has to wait for the reader.
	 * @param port the server's port on 127.0.0.1
	 * @param receiveBuffer the socket's receive buffer, in bytes
	 * @return the connection
	 */
	public static RawHttp openWithReceiveBuffer(int port, int receiveBuffer) throws IOException {
		return open(port, null, receiveBuffer);
	}

	private static RawHttp open(int port, @Nullable String localAddress, int receiveBuffer) throws IOException {
		Socket socket = new Socket();
		if (receiveBuffer > 0) {
			socket.setReceiveBufferSize(receiveBuffer);
		}
		if (localAddress != null) {
			socket.bind(new InetSocketAddress(localAddress, 0));
		}
		socket.connect(new InetSocketAddress("127.0.0.1", port), (int) PATIENCE.toMillis());
		socket.setSoTimeout((int) PATIENCE.toMillis());
		socket.setTcpNoDelay(true);
		return new RawHttp(socket);
	}

	/**
	 * One request on a connection of its own.
	 * @param port the server's port on 127.0.0.1
	 * @param method such as {@code GET}
	 * @param target the request target, sent as given
	 * @param headers header lines such as {@code "Range: bytes=0-1"}
	 * @return the response
	 */
	public static Response exchange(int port, String method, String target, String... headers) throws IOException {
		try (RawHttp http = open(port)) {
			return http.exchange(method, target, headers);
		}
	}

	/**
	 * One request, written out in full by the test, on a connection of its own.
	 * @param port the server's port on 127.0.0.1
	 * @param request the request's bytes as UTF-8 text
	 * @return the response
	 */
	public static Response exchange(int port, String request) throws IOException {
		try (RawHttp http = open(port)) {
			return http.send(request).read();
		}
	}

	/** The {@code Authorization} value for a user name and password. */
	public static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/** Header lines, in a list that the test may add to. */
	public static List<String> headers(String... lines) {
		return new ArrayList<>(List.of(lines));
	}

	/** Sends text as UTF-8, unchanged. */
	public RawHttp send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Sends bytes, unchanged. */
	public RawHttp send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	/** The connection's output, for a body that the test writes piece by piece. */
	public OutputStream out() {
		return this.out;
	}

	/**
	 * Sends a request line and headers, without a body: what a client using
	 * {@code Expect: 100-continue} sends first, or the start of a body the test writes
	 * itself.
	 * @param method such as {@code PUT}
	 * @param target the request target, sent as given
	 * @param headers header lines; {@code Host} is added unless given
	 * @param contentLength added as {@code Content-Length} unless negative or given (or a
	 * {@code Transfer-Encoding})
	 * @return this connection
	 */
	public RawHttp sendHead(String method, String target, List<String> headers, long contentLength) throws IOException {
		StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
		boolean host = false;
		boolean length = false;
		for (String header : headers) {
			String lower = header.toLowerCase(Locale.ROOT);
			host |= lower.startsWith("host:");
			length |= lower.startsWith("content-length:") || lower.startsWith("transfer-encoding:");
			request.append(header).append("\r\n");
		}
		if (!host) {
			request.append("Host: 127.0.0.1\r\n");
		}
		if (contentLength >= 0 && !length) {
			request.append("Content-Length: ").append(contentLength).append("\r\n");
		}
		return send(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
	}

	/**
	 * Sends a request and reads its response (without a body after {@code HEAD}).
	 * @param method such as {@code GET}
	 * @param target the request target, sent as given
	 * @param headers header lines; {@code Host} and, with a body, {@code Content-Length}
	 * are added unless given
	 * @param body the body, or {@code null}
	 * @return the response
	 */
	public Response exchange(String method, String target, List<String> headers, byte @Nullable [] body)
			throws IOException {
		sendHead(method, target, headers, (body != null) ? body.length : -1);
		if (body != null) {
			send(body);
		}
		return method.equals("HEAD") ? readHead() : read();
	}

	/**
	 * Sends a request without a body and reads its response (without a body after
	 * {@code HEAD}).
	 * @param method such as {@code GET}
	 * @param target the request target, sent as given
	 * @param headers header lines; {@code Host} is added unless given
	 * @return the response
	 */
	public Response exchange(String method, String target, String... headers) throws IOException {
		return exchange(method, target, List.of(headers), null);
	}

	/**
	 * Reads one response with its body: framed by {@code Content-Length} or chunks, else
	 * up to the close.
	 * @return the response; {@link Response#complete} says whether the whole announced
	 * body came
	 * @throws EOFException if the connection ends before a whole head
	 */
	public Response read() throws IOException {
		Response head = readHead();
		if (head.status() < 200 || head.status() == 204 || head.status() == 304) {
			return head;
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		String length = head.header("content-length");
		boolean complete;
		if ("chunked".equalsIgnoreCase(head.header("transfer-encoding"))) {
			complete = readChunks(body);
		}
		else if (length != null) {
			complete = copy(body, Long.parseLong(length));
		}
		else {
			this.in.transferTo(body);
			complete = true;
		}
		return new Response(head.statusLine(), head.status(), head.headers(), body.toByteArray(), complete);
	}

	/**
	 * Reads a response's status line and headers, leaving any body unread: the answer to
	 * {@code HEAD}, an interim {@code 100 Continue}, or a body the test reads itself.
	 * @return the response, without a body
	 * @throws EOFException if the connection ends before a whole head
	 */
	public Response readHead() throws IOException {
		String statusLine = line();
		String[] parts = statusLine.split(" ", 3);
		if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
			throw new IOException("Not a status line: " + statusLine);
		}
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line = line(); !line.isEmpty(); line = line()) {
			int colon = line.indexOf(':');
			headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), name -> new ArrayList<>())
				.add(line.substring(colon + 1).trim());
		}
		return new Response(statusLine, Integer.parseInt(parts[1]), headers, new byte[0], true);
	}

	/**
	 * Waits for a response, or for nothing.
	 * @param wait how long to wait for its first byte
	 * @return the response with its body, or {@code null} if no byte came within the wait
	 */
	public @Nullable Response readWithin(Duration wait) throws IOException {
		if (!hasAnswerWithin(wait)) {
			return null;
		}
		return read();
	}

	/** Whether the server has sent something not read yet. */
	public boolean hasAnswer() throws IOException {
		return this.in.available() > 0;
	}

	private boolean hasAnswerWithin(Duration wait) throws IOException {
		this.socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
		try {
			this.in.mark(1);
			// At the end of the stream too: the read that follows says so.
			if (this.in.read() >= 0) {
				this.in.reset();
			}
			return true;
		}
		catch (SocketTimeoutException nothing) {
			return false;
		}
		finally {
			this.socket.setSoTimeout((int) PATIENCE.toMillis());
		}
	}

	/** Reads up to {@code count} bytes, fewer only if the connection ends. */
	public byte[] read(int count) throws IOException {
		return this.in.readNBytes(count);
	}

	/** The bytes after a head, as they arrive. */
	public InputStream body() {
		return this.in;
	}

	/**
	 * The bytes after a head, handed out as a slow client takes them: at most
	 * {@code step} bytes, then a pause, and again.
	 * @param step the bytes between two pauses
	 * @param pause how long each pause lasts
	 * @return the stream
	 */
	public InputStream paced(int step, Duration pause) {
		return new Paced(this.in, step, pause);
	}

	/**
	 * Reads a body of a known length slowly, failing if the server closes the connection
	 * first.
	 * @param length the body's length
	 * @param step the bytes between two pauses
	 * @param pause how long each pause lasts
	 */
	public void readSlowly(long length, int step, Duration pause) throws IOException {
		InputStream paced = paced(step, pause);
		byte[] buffer = new byte[step];
		long received = 0;
		while (received < length) {
			int read = paced.read(buffer, 0, (int) Math.min(buffer.length, length - received));
			assertThat(read).as("the server closed the connection after %d of %d bytes", received, length).isPositive();
			received += read;
		}
	}

	/**
	 * Reads until the server closes or resets the connection, discarding what comes.
	 * @return how many bytes came
	 * @throws SocketTimeoutException if the connection is still open after a read blocked
	 * for {@link #PATIENCE}
	 */
	public long drain() throws IOException {
		byte[] buffer = new byte[64 * 1024];
		long total = 0;
		try {
			for (int read = this.in.read(buffer); read >= 0; read = this.in.read(buffer)) {
				total += read;
			}
		}
		catch (SocketException reset) {
			// A reset ends the connection as surely as a close.
		}
		return total;
	}

	/**
	 * Reads until the server closes or resets the connection.
	 * @param time how long to wait for that
	 * @return what came before the close, or {@code null} if the connection was still
	 * open after the time
	 */
	public byte @Nullable [] restUntilClosed(Duration time) throws IOException {
		long deadline = System.nanoTime() + time.toNanos();
		ByteArrayOutputStream rest = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			while (System.nanoTime() < deadline) {
				this.socket.setSoTimeout((int) Math.max(1, Math.min(1000, (deadline - System.nanoTime()) / 1_000_000)));
				try {
					int read = this.in.read(buffer);
					if (read < 0) {
						return rest.toByteArray();
					}
					rest.write(buffer, 0, read);
				}
				catch (SocketTimeoutException notYet) {
					// Look again until the deadline.
				}
			}
			return null;
		}
		catch (SocketException reset) {
			return rest.toByteArray();
		}
		finally {
			if (!this.socket.isClosed()) {
				this.socket.setSoTimeout((int) PATIENCE.toMillis());
			}
		}
	}

	/**
	 * Whether the server closes or resets the connection within a time, discarding what
	 * comes before.
	 */
	public boolean closedWithin(Duration time) throws IOException {
		return restUntilClosed(time) != null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	private boolean readChunks(ByteArrayOutputStream body) throws IOException {
		try {
			for (long size = chunkSize(); size > 0; size = chunkSize()) {
				if (!copy(body, size)) {
					return false;
				}
				line();
			}
			while (!line().isEmpty()) {
				// Trailers.
			}
			return true;
		}
		catch (EOFException cut) {
			return false;
		}
	}

	private long chunkSize() throws IOException {
		return Long.parseLong(line().split(";")[0].trim(), 16);
	}

	private boolean copy(ByteArrayOutputStream body, long length) throws IOException {
		byte[] bytes = this.in.readNBytes((int) length);
		body.write(bytes, 0, bytes.length);
		return bytes.length == length;
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = this.in.read(); b != '\n'; b = this.in.read()) {
			if (b < 0) {
				throw new EOFException("The server closed the connection in the middle of a line");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	/**
	 * A response.
	 *
	 * @param statusLine the status line as sent
	 * @param status the status code
	 * @param headers header values by lower-case name, in the order they came
	 * @param body the body, de-chunked but not decoded
	 * @param complete whether the whole announced body came
	 */
	public record Response(String statusLine, int status, Map<String, List<String>> headers, byte[] body,
			boolean complete) {

		/** A header's first value, or {@code null}. */
		public @Nullable String header(String name) {
			List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
			return (values != null) ? values.get(0) : null;
		}

		/** Every value of a header. */
		public List<String> headers(String name) {
			return this.headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
		}

		/** The body as UTF-8. */
		public String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		/** The {@code Content-Length} of a 200 response, which must have one. */
		public long contentLength() {
			assertThat(this.status).as(this.statusLine).isEqualTo(200);
			String length = header("content-length");
			assertThat(length).as("Content-Length").isNotNull();
			return Long.parseLong(length);
		}

		/**
		 * The names of the entries of a zip body, in order, as a streaming client reads
		 * them.
		 */
		public List<String> zipNames() throws IOException {
			List<String> names = new ArrayList<>();
			try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(this.body))) {
				for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
					names.add(entry.getName());
				}
			}
			return names;
		}

	}

	/** Hands out at most a number of bytes, then pauses, and again. */
	private static final class Paced extends FilterInputStream {

		private final int step;

		private final Duration pause;

		private int left;

		Paced(InputStream in, int step, Duration pause) {
			super(in);
			this.step = step;
			this.pause = pause;
			this.left = step;
		}

		@Override
		public int read() throws IOException {
			byte[] one = new byte[1];
			return (read(one, 0, 1) < 0) ? -1 : one[0] & 0xff;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			if (this.left == 0) {
				try {
					// The pacing of a slow client, not a wait for a condition.
					Thread.sleep(this.pause.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException(ex);
				}
				this.left = this.step;
			}
			int read = super.read(buffer, offset, Math.min(length, this.left));
			if (read > 0) {
				this.left -= read;
			}
			return read;
		}

	}

}
