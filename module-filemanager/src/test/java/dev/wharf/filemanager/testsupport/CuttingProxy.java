package dev.wharf.filemanager.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP relay on 127.0.0.1 to a local port that breaks one connection as a network
 * failure would: the first connection to send more than {@code cutAfter} bytes towards
 * the server goes silent once that many bytes have passed, and after {@code stall} it is
 * reset on the client's side and closed on the server's; every other connection is
 * relayed untouched. (Without the stall the server would get the bytes and the end of the
 * connection at once, which no slow link does: a real failure leaves the server time to
 * keep what arrived.) A browser test points the browser at {@link #port()} to see how the
 * UI and the server cope with a request broken mid-body, whatever the browser's own
 * network emulation does.
 *
 * <p>
 * Blocking sockets, two daemon threads per connection: a test tool for a handful of
 * connections.
 */
public final class CuttingProxy implements AutoCloseable {

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private final ServerSocket server;

	private final int target;

	private final long cutAfter;

	private final Duration stall;

	private final AtomicBoolean cut = new AtomicBoolean();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	/**
	 * Starts the relay.
	 * @param target the port on 127.0.0.1 to relay to
	 * @param cutAfter how many bytes the broken connection sends towards the server
	 * @param stall how long the broken connection stays silent before it is reset
	 */
	public CuttingProxy(int target, long cutAfter, Duration stall) {
		this.target = target;
		this.cutAfter = cutAfter;
		this.stall = stall;
		try {
			this.server = new ServerSocket(0, 50, LOOPBACK);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		start("cutting-proxy-accept", this::accept);
	}

	/** The port to connect to instead of the target's. */
	public int port() {
		return this.server.getLocalPort();
	}

	/** Whether a connection was broken. */
	public boolean hasCut() {
		return this.cut.get();
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(LOOPBACK, this.target);
				this.sockets.add(client);
				this.sockets.add(upstream);
				start("cutting-proxy-up", () -> relay(client, upstream, true));
				start("cutting-proxy-down", () -> relay(upstream, client, false));
			}
			catch (IOException ex) {
				// Closed, or the target refused: the client sees its connection end.
			}
		}
	}

	private void relay(Socket from, Socket to, boolean towardsServer) {
		byte[] buffer = new byte[8192];
		long sent = 0;
		try {
			// Not closed here: closing a socket's stream closes the socket, and the other
			// direction may go on.
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (towardsServer && sent + read > this.cutAfter && this.cut.compareAndSet(false, true)) {
					out.write(buffer, 0, (int) (this.cutAfter - sent));
					out.flush();
					// The stall is what the test asks for: a route that hangs before it
					// goes away.
					Thread.sleep(this.stall.toMillis());
					// A reset for the client (as when a route goes away), an end of
					// stream mid-body for the server.
					from.setSoLinger(true, 0);
					from.close();
					to.close();
					return;
				}
				out.write(buffer, 0, read);
				sent += read;
			}
			to.shutdownOutput();
		}
		catch (IOException ex) {
			// The other direction closed both sockets, or a peer went away: either way
			// this direction is done.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void start(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

}
