package dev.wharf.core.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Reads what a server sends on a raw socket until it closes the connection, for tests
 * over raw sockets.
 */
final class UntilClosed {

	private UntilClosed() {
	}

	/**
	 * Reads until the server closes (within the socket's read timeout).
	 * @param in the socket's input
	 * @return everything the server sent, as ISO-8859-1
	 * @throws AssertionError if the server did not close the connection in time
	 */
	static String read(InputStream in) throws IOException {
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		try {
			for (int b = in.read(); b >= 0; b = in.read()) {
				read.write(b);
			}
			return read.toString(StandardCharsets.ISO_8859_1);
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError(
					"The server did not close the connection; it sent: " + read.toString(StandardCharsets.ISO_8859_1),
					ex);
		}
	}

}
