package dev.wharf.staticfiles.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client over a raw socket, so tests control every byte of the request (raw paths
 * with {@code %2e%2e}, NUL, backslashes; HTTP/1.0; several requests on one connection) and see every byte
 * of the response, including a connection closed before the announced length.
 */
final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	RawHttp(int port) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(30_000);
		this.in = new BufferedInputStream(this.socket.getInputStream());
		this.out = this.socket.getOutputStream();
	}

	/** One request on a fresh connection. */
	static Response exchange(int port, String method, String target, String... headers) throws IOException {
		try (RawHttp http = new RawHttp(port)) {
			return http.send(method, target, headers);
		}
	}

	/**
	 * Sends a request on this connection and reads the response.
	 * @param method such as GET
	 * @param target the raw request target, sent as is
	 * @param headers "Name: value" lines
	 */
	Response send(String method, String target, String... headers) throws IOException {
		StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
		request.append("Host: 127.0.0.1\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		request.append("\r\n");
		return sendRaw(request.toString().getBytes(StandardCharsets.ISO_8859_1), method.equals("HEAD"));
	}

	/** Sends exact bytes and reads one response. */
	Response sendRaw(byte[] request, boolean head) throws IOException {
		this.out.write(request);
		this.out.flush();
		return read(head);
	}

	private Response read(boolean head) throws IOException {
		String statusLine = line();
		String[] parts = statusLine.split(" ", 3);
		int status = Integer.parseInt(parts[1]);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line = line(); !line.isEmpty(); line = line()) {
			int colon = line.indexOf(':');
			headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
				.add(line.substring(colon + 1).trim());
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		boolean complete = true;
		List<String> length = headers.get("content-length");
		List<String> encoding = headers.get("transfer-encoding");
		if (head || status == 304 || status == 204 || status < 200) {
			// No body.
		}
		else if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
			complete = chunked(body);
		}
		else if (length != null) {
			complete = copy(body, Long.parseLong(length.get(0)));
		}
		else {
			this.in.transferTo(body);
		}
		return new Response(status, headers, body.toByteArray(), complete);
	}

	private boolean chunked(ByteArrayOutputStream body) throws IOException {
		try {
			while (true) {
				String size = line();
				int semicolon = size.indexOf(';');
				long n = Long.parseLong((semicolon < 0) ? size.trim() : size.substring(0, semicolon).trim(), 16);
				if (n == 0) {
					while (!line().isEmpty()) {
						// Trailers.
					}
					return true;
				}
				if (!copy(body, n)) {
					return false;
				}
				line();
			}
		}
		catch (EOFException ex) {
			return false;
		}
	}

	private boolean copy(ByteArrayOutputStream body, long n) throws IOException {
		byte[] buffer = new byte[8192];
		long left = n;
		while (left > 0) {
			int read = this.in.read(buffer, 0, (int) Math.min(buffer.length, left));
			if (read < 0) {
				return false;
			}
			body.write(buffer, 0, read);
			left -= read;
		}
		return true;
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (true) {
			int b = this.in.read();
			if (b < 0) {
				throw new EOFException("Connection closed");
			}
			if (b == '\n') {
				break;
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	/** Whether the server closed the connection (reads end-of-stream within the socket timeout). */
	boolean closedByServer() {
		try {
			return this.in.read() < 0;
		}
		catch (IOException ex) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * A response.
	 * @param status the status code
	 * @param headers by lower-case name
	 * @param body the body (decoded from chunks, not from content codings)
	 * @param complete whether the whole announced body arrived
	 */
	record Response(int status, Map<String, List<String>> headers, byte[] body, boolean complete) {

		String header(String name) {
			List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
			return (values != null) ? values.get(0) : null;
		}

		String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

	}

}
