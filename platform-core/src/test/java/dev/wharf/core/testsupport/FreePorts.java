package dev.wharf.core.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports for the servers tests start (sshd, memcached, Redis, haproxy, Wharf
 * itself), so no test listens on a fixed port another build could hold. A port found free
 * can be taken by someone else before the server binds it; on a test machine that is rare
 * enough.
 */
public final class FreePorts {

	private FreePorts() {
	}

	/**
	 * A port free on 127.0.0.1 now.
	 * @return the port
	 */
	public static int loopback() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
