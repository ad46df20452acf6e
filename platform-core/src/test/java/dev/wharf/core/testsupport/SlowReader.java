package dev.wharf.core.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One raw HTTP/1.1 connection on 127.0.0.1 for tests of clients that read a response slowly or not at all. Its
 * receive buffer is set before it connects: small, what the client does not read stays on the server. Requests
 * go out as written; the response is read by hand. Not thread-safe; always closed by its test.
 */
public final class SlowReader implements Closeable {

	/** How long a read may block. */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private final Socket socket;

	private final InputStream in;

	private SlowReader(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
	}

	/**
	 * Connects.
	 * @param port the server's port on 127.0.0.1
	 * @param receiveBuffer the socket's receive buffer, in bytes
	 * @return the connection
	 */
	public static SlowReader connect(int port, int receiveBuffer) throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(receiveBuffer);
		socket.connect(new InetSocketAddress("127.0.0.1", port), (int) PATIENCE.toMillis());
		socket.setSoTimeout((int) PATIENCE.toMillis());
		return new SlowReader(socket);
	}

	/** Sends text, as UTF-8. */
	public SlowReader send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Sends bytes. */
	public SlowReader send(byte[] bytes) throws IOException {
		this.socket.getOutputStream().write(bytes);
		this.socket.getOutputStream().flush();
		return this;
	}

	/** Reads a response's head, through its blank line. */
	public String head() throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
			int b = this.in.read();
			assertThat(b).as("end of the head").isNotNegative();
			head.write(b);
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

	/**
	 * The {@code Content-Length} of a 200 response's head.
	 * @param head as {@link #head} read it
	 * @return the length
	 */
	public static long contentLength(String head) {
		assertThat(head).startsWith("HTTP/1.1 200 ");
		String lower = head.toLowerCase(Locale.ROOT);
		int at = lower.indexOf("\r\ncontent-length:");
		assertThat(at).as(head).isPositive();
		return Long.parseLong(lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).trim());
	}

	/** The response bytes after the head, as they arrive. */
	public InputStream body() {
		return this.in;
	}

	/**
	 * The response bytes after the head, handed out as a slow client takes them: at most {@code step} bytes,
	 * then a pause, and again.
	 * @param step the bytes between two pauses
	 * @param pause how long each pause lasts
	 * @return the stream
	 */
	public InputStream paced(int step, Duration pause) {
		return new Paced(this.in, step, pause);
	}

	/**
	 * Reads a body of a known length slowly, failing if the server closes the connection first.
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
	 * Reads until the server closes the connection, discarding what comes.
	 * @return how many bytes came
	 * @throws AssertionError if the connection is still open after a read blocked for 30 s
	 */
	public long readUntilClosed() throws IOException {
		byte[] buffer = new byte[256 * 1024];
		long total = 0;
		try {
			for (int read = this.in.read(buffer); read >= 0; read = this.in.read(buffer)) {
				total += read;
			}
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("the connection is still open after " + total + " bytes", ex);
		}
		catch (SocketException reset) {
			// Closed as well.
		}
		return total;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
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
