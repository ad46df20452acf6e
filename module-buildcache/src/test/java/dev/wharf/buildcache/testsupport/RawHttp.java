package dev.wharf.buildcache.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * HTTP/1.1 over a plain socket, byte for byte as a test writes it: request targets are sent unchanged
 * (no client re-encodes or normalises them), headers are exactly those given, and {@code Expect:
 * 100-continue} can be played the way a real client does (send the headers, wait for the interim answer,
 * then the body).
 */
public final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	/**
	 * Connects to 127.0.0.1.
	 * @param port the server's port
	 */
	public RawHttp(int port) throws IOException {
		this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
		this.socket.setSoTimeout(30_000);
		this.socket.setTcpNoDelay(true);
		this.in = this.socket.getInputStream();
		this.out = this.socket.getOutputStream();
	}

	/** The {@code Authorization} value for a user name and password. */
	public static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Sends a request and reads the response.
	 * @param method such as {@code GET}
	 * @param target the request target, sent as given
	 * @param headers header lines such as {@code "Authorization: Basic …"}; {@code Host} and, with a body,
	 * {@code Content-Length} are added unless given
	 * @param body the body, or {@code null}
	 * @return the response
	 */
	public Response exchange(String method, String target, List<String> headers, byte @Nullable [] body) throws IOException {
		sendHeaders(method, target, headers, body);
		if (body != null) {
			this.out.write(body);
			this.out.flush();
		}
		return readResponse(!method.equals("HEAD"));
	}

	/**
	 * Sends the request line and headers only, as a client using {@code Expect: 100-continue} does.
	 */
	public void sendHeaders(String method, String target, List<String> headers, byte @Nullable [] body) throws IOException {
		StringBuilder request = new StringBuilder();
		request.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
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
		if (body != null && !length) {
			request.append("Content-Length: ").append(body.length).append("\r\n");
		}
		request.append("\r\n");
		this.out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
		this.out.flush();
	}

	/** Sends raw bytes, such as a body after {@code 100 Continue}, or a request with bytes no URI allows. */
	public void send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
	}

	/**
	 * Waits for a response, or for nothing: returns {@code null} if no byte arrives within the wait.
	 * @param waitMillis how long to wait for the first byte
	 * @param withBody whether the response has a body (not after HEAD)
	 */
	public @Nullable Response readResponseWithin(int waitMillis, boolean withBody) throws IOException {
		this.socket.setSoTimeout(waitMillis);
		int first;
		try {
			first = this.in.read();
		}
		catch (SocketTimeoutException nothing) {
			return null;
		}
		finally {
			this.socket.setSoTimeout(30_000);
		}
		if (first < 0) {
			throw new IOException("Connection closed");
		}
		return readResponse(withBody, (byte) first);
	}

	/** Reads one response. */
	public Response readResponse(boolean withBody) throws IOException {
		int first = this.in.read();
		if (first < 0) {
			throw new IOException("Connection closed");
		}
		return readResponse(withBody, (byte) first);
	}

	private Response readResponse(boolean withBody, byte first) throws IOException {
		String statusLine = line(first);
		int status = Integer.parseInt(statusLine.split(" ")[1]);
		Map<String, String> headers = new LinkedHashMap<>();
		for (String line = line(null); !line.isEmpty(); line = line(null)) {
			int colon = line.indexOf(':');
			headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
		}
		if (status == 100) {
			return new Response(status, headers, new byte[0]);
		}
		byte[] body = new byte[0];
		if (withBody && status != 204 && status != 304) {
			if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
				body = chunked();
			}
			else if (headers.containsKey("content-length")) {
				body = this.in.readNBytes(Integer.parseInt(headers.get("content-length")));
			}
		}
		return new Response(status, headers, body);
	}

	private byte[] chunked() throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			int size = Integer.parseInt(line(null).split(";")[0].trim(), 16);
			if (size == 0) {
				while (!line(null).isEmpty()) {
					// Trailers.
				}
				return body.toByteArray();
			}
			body.writeBytes(this.in.readNBytes(size));
			line(null);
		}
	}

	private String line(@Nullable Byte first) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		if (first != null) {
			line.write(first);
		}
		int b;
		while ((b = this.in.read()) >= 0 && b != '\n') {
			line.write(b);
		}
		if (b < 0 && line.size() == 0) {
			throw new IOException("Connection closed");
		}
		String text = line.toString(StandardCharsets.ISO_8859_1);
		return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
	}

	/** Whether the server closed the connection (reads end of stream within a short wait). */
	public boolean isClosedByServer() throws IOException {
		this.socket.setSoTimeout(5_000);
		try {
			return this.in.read() < 0;
		}
		catch (SocketTimeoutException stillOpen) {
			return false;
		}
		catch (IOException reset) {
			return true;
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * One response.
	 *
	 * @param status the status code
	 * @param headers header values by lower-case name (the last of repeated headers)
	 * @param body the body
	 */
	public record Response(int status, Map<String, String> headers, byte[] body) {

		/** A header's value, or {@code null}. */
		public @Nullable String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

		/** The body as UTF-8. */
		public String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

	}

	/** Header lines for a list literal. */
	public static List<String> headers(String... lines) {
		return new ArrayList<>(List.of(lines));
	}

}
