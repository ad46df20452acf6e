package dev.wharf.app.hostile;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.jspecify.annotations.Nullable;

/**
 * One raw HTTP/1.1 connection to the server under test: bytes go out exactly as given (no client library
 * fixes a hostile request), answers are parsed by hand (status, headers, a body framed by
 * {@code Content-Length} or chunked). Not thread-safe; always closed by its test.
 */
final class Wire implements Closeable {

	/** Generous: the machine is shared by several builds. */
	static final Duration PATIENCE = Duration.ofSeconds(30);

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private Wire(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
		this.out = socket.getOutputStream();
	}

	/** Connects to the server on 127.0.0.1. */
	static Wire open(int port) throws IOException {
		return open(port, null);
	}

	/** Connects from a given loopback address (another client, as far as the server can tell). */
	static Wire open(int port, @Nullable String localAddress) throws IOException {
		Socket socket = new Socket();
		if (localAddress != null) {
			socket.bind(new InetSocketAddress(localAddress, 0));
		}
		socket.connect(new InetSocketAddress("127.0.0.1", port), (int) PATIENCE.toMillis());
		socket.setSoTimeout((int) PATIENCE.toMillis());
		socket.setTcpNoDelay(true);
		return new Wire(socket);
	}

	/** One request on a fresh connection, closed afterwards. */
	static Response exchange(int port, String request) throws IOException {
		try (Wire wire = open(port)) {
			return wire.send(request).read();
		}
	}

	Wire send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.UTF_8));
	}

	Wire send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	/**
	 * Reads one response.
	 * @throws IOException if the connection ends before a whole response
	 */
	Response read() throws IOException {
		return read(true);
	}

	private Response read(boolean withBody) throws IOException {
		String head = readHead();
		if (head == null) {
			throw new IOException("The server closed the connection without an answer");
		}
		String[] lines = head.split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), name -> new ArrayList<>())
				.add(lines[i].substring(colon + 1).trim());
		}
		Response response = new Response(lines[0], status, headers, new byte[0]);
		if (!withBody) {
			return response;
		}
		String length = response.header("content-length");
		if (length != null) {
			return response.withBody(this.in.readNBytes(Integer.parseInt(length)));
		}
		if ("chunked".equalsIgnoreCase(response.header("transfer-encoding"))) {
			return response.withBody(readChunked());
		}
		return response;
	}

	/**
	 * Reads until the server closes the connection, discarding what comes, and says whether that happened
	 * within the given time.
	 */
	boolean closedWithin(Duration time) throws IOException {
		return restUntilClosed(time) != null;
	}

	/**
	 * Reads until the server closes the connection.
	 * @return what came before the close, or {@code null} if the connection was still open after the time
	 */
	byte @Nullable [] restUntilClosed(Duration time) throws IOException {
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
				catch (SocketTimeoutException ex) {
					// Not yet; look again.
				}
			}
			return null;
		}
		catch (SocketException reset) {
			return rest.toByteArray();
		}
	}

	/** Reads the head of an answer to {@code HEAD}, which has no body whatever its headers say. */
	Response readHeadOnly() throws IOException {
		return read(false);
	}

	/** Whether the server has sent something not read yet. */
	boolean hasAnswer() throws IOException {
		return this.in.available() > 0;
	}

	/** Whether the server has closed the connection: a write fails or a read sees the end. */
	boolean isClosed() {
		try {
			this.socket.setSoTimeout(200);
			return this.in.read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	private @Nullable String readHead() throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int b = this.in.read();
			if (b < 0) {
				return null;
			}
			head.write(b);
			matched = (b == ((matched % 2 == 0) ? '\r' : '\n')) ? matched + 1 : ((b == '\r') ? 1 : 0);
		}
		String text = head.toString(StandardCharsets.ISO_8859_1);
		return text.substring(0, text.length() - 4);
	}

	private byte[] readChunked() throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			String size = readLine();
			int length = Integer.parseInt(size.split(";")[0].trim(), 16);
			if (length == 0) {
				while (!readLine().isEmpty()) {
					// trailers
				}
				return body.toByteArray();
			}
			body.write(this.in.readNBytes(length));
			readLine();
		}
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != '\n') {
			if (b < 0) {
				throw new IOException("Connection closed inside a chunked body");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	/** An answer: its status line as sent, status, headers by lower-case name, body. */
	record Response(String statusLine, int status, Map<String, List<String>> headers, byte[] body) {

		@Nullable String header(String name) {
			List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
			return (values == null) ? null : values.get(0);
		}

		List<String> headers(String name) {
			return this.headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
		}

		String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		/** The names of the entries of a zip body, in order, as a streaming client reads them. */
		List<String> zipNames() throws IOException {
			List<String> names = new ArrayList<>();
			try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(this.body))) {
				for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
					names.add(entry.getName());
				}
			}
			return names;
		}

		Response withBody(byte[] content) {
			return new Response(this.statusLine, this.status, this.headers, content);
		}

	}

}
