package dev.wharf.filemanager.testsupport;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client for the file API in tests. Request targets go on the wire exactly as written
 * (a {@link URI} with Reactor Netty sends the raw path and query, so traversal vectors
 * are not re-encoded); {@link #raw} talks through a plain socket for what no client
 * library sends (cut-off bodies).
 */
public final class Api {

	/** The anti-CSRF header of browser calls. */
	public static final String XRW = "X-Requested-With";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final int port;

	private final HttpClient client;

	/**
	 * A client for a server.
	 * @param port the server's port on 127.0.0.1
	 */
	public Api(int port) {
		this(port, null);
	}

	/**
	 * A client for a server that connects from a given local address, such as
	 * {@code 127.0.0.2}, so the server sees another client.
	 * @param port the server's port on 127.0.0.1
	 * @param localAddress the address to connect from, or {@code null} for any
	 */
	public Api(int port, @Nullable String localAddress) {
		this.port = port;
		HttpClient client = HttpClient.create().responseTimeout(TIMEOUT);
		this.client = (localAddress != null) ? client.bindAddress(() -> new InetSocketAddress(localAddress, 0))
				: client;
	}

	/** The server's port. */
	public int port() {
		return this.port;
	}

	/** Starts a request. */
	public Request request(String method, String target) {
		return new Request(method, target);
	}

	/** A GET. */
	public Request get(String target) {
		return request("GET", target);
	}

	/** A POST. */
	public Request post(String target) {
		return request("POST", target);
	}

	/**
	 * A tus {@code PATCH}: the next piece of a resumable upload.
	 * @param location the upload's URL, as its creation answered
	 * @param offset where the piece starts ({@code Upload-Offset})
	 * @return the request, without credentials or body
	 */
	public Request tusPatch(String location, long offset) {
		return request("PATCH", location).header("Tus-Resumable", "1.0.0")
			.header("Content-Type", "application/offset+octet-stream")
			.header("Upload-Offset", Long.toString(offset));
	}

	/**
	 * Logs in and returns the session cookie ({@code auth=…}).
	 * @param user the user
	 * @param password the password
	 * @return the cookie, ready for a {@code Cookie} header
	 */
	public String login(String user, String password) {
		Answer answer = post("/api/session").json("{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}")
			.send();
		assertThat(answer.status()).as(answer.text()).isEqualTo(200);
		return cookie(answer);
	}

	/** The {@code auth=…} pair of an answer's {@code Set-Cookie}. */
	public static String cookie(Answer answer) {
		String setCookie = answer.headers().get("Set-Cookie");
		assertThat(setCookie).isNotNull();
		return setCookie.substring(0, setCookie.indexOf(';'));
	}

	/**
	 * Mints an API token with the password.
	 * @param user the user
	 * @param password the password
	 * @return the token
	 */
	public String token(String user, String password) {
		Answer answer = post("/api/tokens?name=test").basic(user, password).send();
		assertThat(answer.status()).as(answer.text()).isEqualTo(201);
		return answer.json().path("result").path("token").stringValue();
	}

	/**
	 * Sends raw bytes on a new connection and reads what comes back until the server
	 * closes or a timeout.
	 * @param bytes the request, as it goes on the wire
	 * @param closeAfterSending whether to close right after sending (a client that went
	 * away)
	 * @return what the server answered, as text
	 */
	public String raw(byte[] bytes, boolean closeAfterSending) throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout((int) TIMEOUT.toMillis());
			OutputStream out = socket.getOutputStream();
			out.write(bytes);
			out.flush();
			if (closeAfterSending) {
				socket.setSoLinger(true, 0);
				return "";
			}
			socket.shutdownOutput();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
		}
	}

	/** One request being built. */
	public final class Request {

		private final String method;

		private final String target;

		private final Map<String, String> headers = new LinkedHashMap<>();

		private byte @Nullable [] body;

		Request(String method, String target) {
			this.method = method;
			this.target = target;
		}

		/** Adds a header. */
		public Request header(String name, String value) {
			this.headers.put(name, value);
			return this;
		}

		/** Authenticates as a browser: the cookie and {@code X-Requested-With}. */
		public Request browser(String cookie) {
			return header("Cookie", cookie).header(XRW, "XmlHttpRequest");
		}

		/** Authenticates with an API token. */
		public Request bearer(String token) {
			return header("Authorization", "Bearer " + token);
		}

		/** Authenticates with HTTP Basic. */
		public Request basic(String user, String password) {
			return header("Authorization", "Basic "
					+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
		}

		/** A JSON body. */
		public Request json(String json) {
			header("Content-Type", "application/json");
			return body(json.getBytes(StandardCharsets.UTF_8));
		}

		/** A body. */
		public Request body(byte[] body) {
			this.body = body;
			return this;
		}

		/** A text body. */
		public Request body(String text) {
			return body(text.getBytes(StandardCharsets.UTF_8));
		}

		/**
		 * Sends it through a plain socket, byte for byte as written, for targets that are
		 * not even a valid URI (a bare {@code %}, a backslash); the connection is closed
		 * after the answer.
		 */
		public Answer sendRaw() throws Exception {
			byte[] content = this.body;
			StringBuilder head = new StringBuilder(
					this.method + " " + this.target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Connection: close\r\n");
			this.headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
			head.append("Content-Length: ").append((content != null) ? content.length : 0).append("\r\n\r\n");
			byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
			byte[] request = new byte[headBytes.length + ((content != null) ? content.length : 0)];
			System.arraycopy(headBytes, 0, request, 0, headBytes.length);
			if (content != null) {
				System.arraycopy(content, 0, request, headBytes.length, content.length);
			}
			String response = raw(request, false);
			int end = response.indexOf("\r\n\r\n");
			assertThat(end).as(response).isPositive();
			String[] lines = response.substring(0, end).split("\r\n");
			Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				headers.put(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim());
			}
			byte[] body = response.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1);
			return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
		}

		/** Sends it and waits for the whole answer. */
		public Answer send() {
			byte[] content = this.body;
			HttpClient.RequestSender sender = Api.this.client.headers(h -> this.headers.forEach(h::set))
				.request(HttpMethod.valueOf(this.method))
				.uri(URI.create("http://127.0.0.1:" + Api.this.port + this.target));
			HttpClient.ResponseReceiver<?> receiver = (content != null)
					? sender.send(ByteBufFlux.fromInbound(Mono.just(Unpooled.wrappedBuffer(content)))) : sender;
			Answer answer = receiver
				.responseSingle((response, bytes) -> bytes.asByteArray()
					.defaultIfEmpty(new byte[0])
					.map(data -> new Answer(response.status().code(), headers(response.responseHeaders()), data)))
				.block(TIMEOUT);
			assertThat(answer).isNotNull();
			return answer;
		}

		private static Map<String, String> headers(HttpHeaders headers) {
			Map<String, String> map = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			headers.forEach(entry -> map.merge(entry.getKey(), entry.getValue(), (a, b) -> a + ", " + b));
			return map;
		}

	}

	/**
	 * An answer.
	 *
	 * @param status the status code
	 * @param headers the headers (case-insensitive; repeated headers joined with ", ")
	 * @param body the body
	 */
	public record Answer(int status, Map<String, String> headers, byte[] body) {

		/** The body as UTF-8 text. */
		public String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		/** The body as JSON. */
		public JsonNode json() {
			return JSON.readTree(this.body);
		}

		/** A header, or {@code null}. */
		public @Nullable String header(String name) {
			return this.headers.get(name);
		}

		/** The names in {@code results}, in order. */
		public List<String> names() {
			return json().path("results").valueStream().map(entry -> entry.path("name").stringValue()).toList();
		}

		/** The envelope's {@code message}. */
		public String message() {
			return json().path("message").stringValue();
		}

	}

}
