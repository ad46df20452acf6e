package dev.wharf.app.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 request over its own socket (and {@code Connection: close}), so that a test can stop in the
 * middle of a body, in either direction, and see exactly where the server ended the response. The receive
 * buffer is small, so a server sending a large body waits for the reader instead of filling the socket.
 */
final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	RawHttp(int port) throws IOException {
		this.socket = new Socket();
		this.socket.setReceiveBufferSize(32 * 1024);
		this.socket.setSoTimeout(60_000);
		this.socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 30_000);
		this.in = this.socket.getInputStream();
		this.out = this.socket.getOutputStream();
	}

	static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/** Sends a whole request and reads the whole answer. */
	static Response exchange(int port, String method, String target, @Nullable String authorization,
			byte @Nullable [] body) throws IOException {
		return exchangeWith(port, method, target,
				(authorization != null) ? Map.of("Authorization", authorization) : Map.of(), body);
	}

	/** Sends a whole request with more headers (such as {@code Cookie}) and reads the whole answer. */
	static Response exchangeWith(int port, String method, String target, Map<String, String> headers,
			byte @Nullable [] body) throws IOException {
		try (RawHttp http = new RawHttp(port)) {
			http.sendHeaders(method, target, headers, (body != null) ? body.length : -1);
			if (body != null) {
				http.out.write(body);
				http.out.flush();
			}
			Response response = http.readHead();
			return response.withBody(http.readBody(response));
		}
	}

	/** Sends the request line and headers; the body, if any, follows through {@link #body()}. */
	void sendHeaders(String method, String target, @Nullable String authorization, long contentLength) throws IOException {
		sendHeaders(method, target, (authorization != null) ? Map.of("Authorization", authorization) : Map.of(),
				contentLength);
	}

	private void sendHeaders(String method, String target, Map<String, String> headers, long contentLength)
			throws IOException {
		StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
			.append("Host: 127.0.0.1\r\nConnection: close\r\n");
		headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
		if (contentLength >= 0) {
			request.append("Content-Length: ").append(contentLength).append("\r\n");
		}
		this.out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
		this.out.flush();
	}

	OutputStream body() {
		return this.out;
	}

	/** Reads the status line and headers. */
	Response readHead() throws IOException {
		String status = line();
		Map<String, String> headers = new LinkedHashMap<>();
		for (String line = line(); !line.isEmpty(); line = line()) {
			int colon = line.indexOf(':');
			headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
		}
		return new Response(Integer.parseInt(status.split(" ")[1]), headers, new byte[0], true);
	}

	/** Reads up to {@code count} bytes of the body. */
	byte[] read(int count) throws IOException {
		return this.in.readNBytes(count);
	}

	/**
	 * Reads what the server still sends until it closes or resets the connection.
	 * @return how many bytes came
	 */
	long drain() {
		long total = 0;
		byte[] buffer = new byte[64 * 1024];
		try {
			for (int n = this.in.read(buffer); n >= 0; n = this.in.read(buffer)) {
				total += n;
			}
		}
		catch (IOException reset) {
			// A reset ends the body as surely as a close.
		}
		return total;
	}

	private byte[] readBody(Response head) throws IOException {
		if ("chunked".equalsIgnoreCase(head.header("transfer-encoding"))) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
					size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
				body.write(this.in.readNBytes(size));
				line();
			}
			return body.toByteArray();
		}
		String length = head.header("content-length");
		return (length != null) ? this.in.readNBytes(Integer.parseInt(length)) : this.in.readAllBytes();
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = this.in.read(); b != '\n'; b = this.in.read()) {
			if (b < 0) {
				throw new IOException("Connection closed in the middle of a line");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * An answer.
	 * @param status the status code
	 * @param headers header names in lower case
	 * @param body the body
	 * @param complete whether the body had the announced length
	 */
	record Response(int status, Map<String, String> headers, byte[] body, boolean complete) {

		@Nullable String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

		String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		Response withBody(byte[] body) {
			String length = header("content-length");
			return new Response(this.status, this.headers, body, length == null || Long.parseLong(length) == body.length);
		}

	}

}
