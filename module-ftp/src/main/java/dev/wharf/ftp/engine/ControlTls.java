package dev.wharf.ftp.engine;

import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

import dev.wharf.ftp.tls.FtpTls;
import org.apache.ftpserver.ssl.ClientAuth;
import org.apache.ftpserver.ssl.SslConfiguration;
import org.apache.mina.filter.ssl.SslFilter;
import org.jspecify.annotations.Nullable;

/**
 * {@link FtpTls} for the control connection, as Apache FtpServer's
 * {@link SslConfiguration} (which its {@code AUTH TLS} reads) and as the MINA filter of
 * implicit FTPS: both take the SSL context, protocols and suites from {@link FtpTls}, as
 * data connections do. Thread-safe.
 *
 * @param tls the TLS settings
 */
record ControlTls(FtpTls tls) implements SslConfiguration {

	/**
	 * A MINA filter for one control connection, in server mode, set up as
	 * {@code AUTH TLS} sets up its own.
	 * @return a new filter
	 */
	SslFilter newFilter() {
		SslFilter filter = new SslFilter(getSSLContext());
		filter.setEnabledProtocols(getEnabledProtocols());
		String[] ciphers = getEnabledCipherSuites();
		if (ciphers != null) {
			filter.setEnabledCipherSuites(ciphers);
		}
		return filter;
	}

	@Override
	public SSLSocketFactory getSocketFactory() {
		return this.tls.context().getSocketFactory();
	}

	@Override
	public SSLContext getSSLContext() {
		return this.tls.context();
	}

	@Override
	public SSLContext getSSLContext(String protocol) {
		return this.tls.context();
	}

	@Override
	public String @Nullable [] getEnabledCipherSuites() {
		List<String> ciphers = this.tls.cipherSuites();
		return (ciphers != null) ? ciphers.toArray(String[]::new) : null;
	}

	@Override
	public String getEnabledProtocol() {
		return this.tls.protocols().get(0);
	}

	@Override
	public String[] getEnabledProtocols() {
		return this.tls.protocols().toArray(String[]::new);
	}

	@Override
	public ClientAuth getClientAuth() {
		return ClientAuth.NONE;
	}

}
