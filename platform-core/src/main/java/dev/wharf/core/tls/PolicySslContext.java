package dev.wharf.core.tls;

import java.security.KeyManagementException;
import java.security.SecureRandom;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An SSL context whose every engine is narrowed by {@link TlsPolicy#restrict(SSLEngine)}
 * before anyone else sees it, for servers that make their own engines, or let a library
 * make them (FTPS: the FTP engine's {@code AUTH} command and implicit TLS on the control
 * connection, and Netty handlers on data connections). Handing such code this context
 * puts the policy where the engines are born. The socket factories are the delegate's:
 * Wharf makes no TLS sockets. Thread-safe like the delegate.
 */
public final class PolicySslContext extends SSLContext {

	/**
	 * Wraps an initialized context.
	 * @param delegate the context that makes the engines
	 */
	public PolicySslContext(SSLContext delegate) {
		super(new Spi(delegate), delegate.getProvider(), delegate.getProtocol());
	}

	private static final class Spi extends SSLContextSpi {

		private final SSLContext delegate;

		Spi(SSLContext delegate) {
			this.delegate = delegate;
		}

		@Override
		protected void engineInit(KeyManager[] keyManagers, TrustManager[] trustManagers, SecureRandom random)
				throws KeyManagementException {
			throw new KeyManagementException("Already initialized");
		}

		@Override
		protected SSLSocketFactory engineGetSocketFactory() {
			return this.delegate.getSocketFactory();
		}

		@Override
		protected SSLServerSocketFactory engineGetServerSocketFactory() {
			return this.delegate.getServerSocketFactory();
		}

		@Override
		protected SSLEngine engineCreateSSLEngine() {
			return restricted(this.delegate.createSSLEngine());
		}

		@Override
		protected SSLEngine engineCreateSSLEngine(String host, int port) {
			return restricted(this.delegate.createSSLEngine(host, port));
		}

		@Override
		protected SSLSessionContext engineGetServerSessionContext() {
			return this.delegate.getServerSessionContext();
		}

		@Override
		protected SSLSessionContext engineGetClientSessionContext() {
			return this.delegate.getClientSessionContext();
		}

		private static SSLEngine restricted(SSLEngine engine) {
			TlsPolicy.restrict(engine);
			return engine;
		}

	}

}
