package dev.wharf.core.storage.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on 127.0.0.1 in front of a real S3 server that answers the first requests
 * itself with {@code 503 SlowDown}, as a throttled S3 does (or with another answer of
 * S3's), and relays every connection after those to the server untouched. Only for
 * requests without a body. Closed with {@link #close()}.
 */
final class ThrottlingRelay implements AutoCloseable {

	private static final String SLOW_DOWN_BODY = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
			+ "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>";

	private static final byte[] SLOW_DOWN = ("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\n"
			+ "Connection: close\r\nContent-Length: " + SLOW_DOWN_BODY.length() + "\r\n\r\n" + SLOW_DOWN_BODY)
		.getBytes(StandardCharsets.US_ASCII);

	private final ServerSocket listener;

	private final int target;

	private final AtomicInteger throttled;

	private final byte[] answer;

	private final AtomicInteger refused = new AtomicInteger();

	private final Thread acceptor;

	/**
	 * Starts the relay.
	 * @param target the S3 server's port on 127.0.0.1
	 * @param throttled how many requests to refuse with {@code SlowDown} before relaying
	 */
	ThrottlingRelay(int target, int throttled) throws IOException {
		this(target, throttled, SLOW_DOWN);
	}

	/**
	 * Starts the relay.
	 * @param target the S3 server's port on 127.0.0.1
	 * @param refused how many requests to answer itself before relaying
	 * @param answer the whole HTTP response it answers them with
	 */
	ThrottlingRelay(int target, int refused, byte[] answer) throws IOException {
		this.answer = answer;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.target = target;
		this.throttled = new AtomicInteger(refused);
		this.acceptor = new Thread(this::accept, "throttling-relay");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * S3's answer to a request signed for another region than the bucket's.
	 * @param region the bucket's region
	 * @return the whole HTTP response
	 */
	static byte[] permanentRedirect(String region) {
		String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PermanentRedirect</Code>"
				+ "<Message>The bucket you are attempting to access must be addressed using the specified endpoint."
				+ "</Message></Error>";
		return ("HTTP/1.1 301 Moved Permanently\r\nx-amz-bucket-region: " + region
				+ "\r\nContent-Type: application/xml\r\nConnection: close\r\nContent-Length: " + body.length()
				+ "\r\n\r\n" + body)
			.getBytes(StandardCharsets.US_ASCII);
	}

	/** Its URL, as a mount's endpoint. */
	URI endpoint() {
		return URI.create("http://127.0.0.1:" + this.listener.getLocalPort());
	}

	/** How many requests it refused. */
	int refused() {
		return this.refused.get();
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Thread handler = new Thread(() -> handle(client), "throttling-relay-connection");
				handler.setDaemon(true);
				handler.start();
			}
			catch (IOException closed) {
				return;
			}
		}
	}

	private void handle(Socket client) {
		try (client) {
			if (this.throttled.getAndDecrement() > 0) {
				readHead(client.getInputStream());
				this.refused.incrementAndGet();
				client.getOutputStream().write(this.answer);
				client.getOutputStream().flush();
				return;
			}
			try (Socket server = new Socket()) {
				server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.target), 5000);
				Thread back = new Thread(() -> pipe(server, client), "throttling-relay-back");
				back.setDaemon(true);
				back.start();
				pipe(client, server);
				back.join(10_000);
			}
		}
		catch (IOException | InterruptedException ex) {
			// The connection ends; the client sees it end.
		}
	}

	private static void readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				return;
			}
			head.write(b);
		}
	}

	private static void pipe(Socket from, Socket to) {
		try {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			byte[] buffer = new byte[64 * 1024];
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				out.write(buffer, 0, n);
				out.flush();
			}
			to.shutdownOutput();
		}
		catch (IOException closed) {
			// Either side went away.
		}
	}

	@Override
	public void close() throws IOException {
		this.listener.close();
	}

}
