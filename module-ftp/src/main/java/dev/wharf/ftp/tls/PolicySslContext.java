package dev.wharf.ftp.tls;

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

import dev.wharf.core.web.TlsPolicy;

/**
 * An SSL context whose every engine is narrowed by {@link TlsPolicy#restrict(SSLEngine)} before anyone else sees
 * it. FTPS engines are made in three places Wharf does not all own: FtpServer's {@code AUTH} command builds its
 * MINA filter from {@code SslConfiguration.getSSLContext()}, implicit FTPS adds Wharf's filter, and data
 * connections make Netty handlers. Handing all three this context puts the policy where the engines are born.
 * The socket factories are the delegate's: Wharf's FTP server makes no TLS sockets. Thread-safe like the
 * delegate.
 */
final class PolicySslContext extends SSLContext {

	PolicySslContext(SSLContext delegate) {
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
