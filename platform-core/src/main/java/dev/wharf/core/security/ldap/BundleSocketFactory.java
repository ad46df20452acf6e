package dev.wharf.core.security.ldap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.function.Supplier;

import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;

import org.jspecify.annotations.Nullable;

/**
 * The socket factory JNDI uses for {@code ldaps://} connections when an SSL bundle gives
 * the trust store. JNDI takes only a class name ({@code java.naming.ldap.factory.socket})
 * and calls its static {@link #getDefault()} while it connects, on the thread that opens
 * the context; {@link #with} hands that thread the bundle's factory for the duration of
 * the call, so several configurations (and tests) never share one.
 */
public final class BundleSocketFactory extends SocketFactory {

	private static final ThreadLocal<@Nullable SSLSocketFactory> CURRENT = new ThreadLocal<>();

	private final SSLSocketFactory delegate;

	private BundleSocketFactory(SSLSocketFactory delegate) {
		this.delegate = delegate;
	}

	/**
	 * Runs an action that opens LDAP contexts with a given factory for {@code ldaps://}.
	 * @param <T> the action's result
	 * @param factory the factory
	 * @param action what opens the contexts, on this thread
	 * @return the action's result
	 */
	static <T> T with(SSLSocketFactory factory, Supplier<T> action) {
		CURRENT.set(factory);
		try {
			return action.get();
		}
		finally {
			CURRENT.remove();
		}
	}

	/**
	 * What JNDI asks for.
	 * @return the factory of the action running on this thread
	 * @throws IllegalStateException if called outside {@link #with}
	 */
	public static SocketFactory getDefault() {
		SSLSocketFactory factory = CURRENT.get();
		if (factory == null) {
			throw new IllegalStateException("An ldaps:// connection was opened outside Wharf's LDAP client");
		}
		return new BundleSocketFactory(factory);
	}

	@Override
	public Socket createSocket() throws IOException {
		return this.delegate.createSocket();
	}

	@Override
	public Socket createSocket(String host, int port) throws IOException {
		return this.delegate.createSocket(host, port);
	}

	@Override
	public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
		return this.delegate.createSocket(host, port, localHost, localPort);
	}

	@Override
	public Socket createSocket(InetAddress host, int port) throws IOException {
		return this.delegate.createSocket(host, port);
	}

	@Override
	public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
			throws IOException {
		return this.delegate.createSocket(address, port, localAddress, localPort);
	}

}
