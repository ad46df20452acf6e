package dev.wharf.ftp.tls;

import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;

import dev.wharf.core.web.TlsPolicy;
import io.netty.handler.ssl.SslHandler;
import org.apache.ftpserver.ssl.ClientAuth;
import org.apache.ftpserver.ssl.SslConfiguration;
import org.apache.mina.filter.ssl.SslFilter;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * TLS for FTPS, from a Spring Boot SSL bundle: the control connection's MINA {@link SslFilter} (through
 * FtpServer's {@link SslConfiguration}) and each data connection's Netty {@link SslHandler}, all in server mode
 * and held to platform-core's {@link TlsPolicy}: TLS 1.2 and 1.3, AEAD suites with forward secrecy only. Every
 * engine comes from a {@link PolicySslContext}, so FtpServer's own {@code AUTH TLS} filter is narrowed too, and
 * suites named in the bundle are narrowed to the policy. When the bundle is reloaded (its files changed), new
 * connections use the new key and certificate.
 *
 * <p>Data connections use TLS 1.2 whenever it is allowed. A TLS 1.3 server sends session tickets after the
 * handshake; a client that only uploads never reads them, and closing a socket with unread data makes the
 * kernel reset the connection and drop what was still queued: lftp's uploads were cut short that way (and then
 * refused, having no {@code close_notify}). In TLS 1.2 tickets are part of the handshake.
 *
 * <p>Thread-safe.
 */
public final class FtpTls implements SslConfiguration {

	/** The only protocols offered. */
	public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

	private final String[] protocols;

	private final String[] dataProtocols;

	private final String @Nullable [] ciphers;

	private volatile SSLContext context;

	private FtpTls(SSLContext context, String[] protocols, String @Nullable [] ciphers) {
		this.context = new PolicySslContext(context);
		this.protocols = protocols;
		this.dataProtocols = List.of(protocols).contains("TLSv1.2") ? new String[] { "TLSv1.2" } : protocols.clone();
		this.ciphers = ciphers;
	}

	/**
	 * TLS from a bundle, following its reloads.
	 * @param bundles the application's bundles
	 * @param name the bundle's name
	 * @return the TLS settings
	 * @throws IllegalArgumentException if the bundle asks for protocols other than TLS 1.2 and 1.3
	 */
	public static FtpTls of(SslBundles bundles, String name) {
		SslBundle bundle = bundles.getBundle(name);
		FtpTls tls = of(bundle);
		bundles.addBundleUpdateHandler(name, updated -> tls.context = new PolicySslContext(updated.createSslContext()));
		return tls;
	}

	/**
	 * TLS from one bundle.
	 * @param bundle the bundle
	 * @return the TLS settings
	 * @throws IllegalArgumentException if the bundle asks for protocols other than TLS 1.2 and 1.3
	 */
	public static FtpTls of(SslBundle bundle) {
		String[] configured = bundle.getOptions().getEnabledProtocols();
		String[] protocols = PROTOCOLS.toArray(String[]::new);
		if (configured != null && configured.length > 0) {
			for (String protocol : configured) {
				if (!PROTOCOLS.contains(protocol)) {
					throw new IllegalArgumentException("protocol " + protocol + " is not allowed; FTPS offers only "
							+ String.join(" and ", PROTOCOLS));
				}
			}
			protocols = configured.clone();
		}
		String[] ciphers = bundle.getOptions().getCiphers();
		return new FtpTls(bundle.createSslContext(), protocols,
				(ciphers != null && ciphers.length > 0) ? TlsPolicy.cipherSuites(ciphers) : null);
	}

	/** The protocols offered, newest first. */
	public List<String> protocols() {
		return List.of(this.protocols);
	}

	/**
	 * A Netty handler for one data connection, in server mode (the FTP client is the TLS client in passive
	 * and active mode alike, RFC 4217 section 7).
	 * @param handshakeTimeout how long the handshake may take
	 * @return a new handler
	 */
	public SslHandler newDataHandler(Duration handshakeTimeout) {
		SslHandler handler = new SslHandler(newEngine(this.dataProtocols));
		handler.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
		return handler;
	}

	/**
	 * A MINA filter for one control connection, in server mode.
	 * @return a new filter
	 */
	public SslFilter newControlFilter() {
		SslFilter filter = new SslFilter(this.context);
		filter.setEnabledProtocols(this.protocols.clone());
		if (this.ciphers != null) {
			filter.setEnabledCipherSuites(this.ciphers.clone());
		}
		return filter;
	}

	private SSLEngine newEngine(String[] enabledProtocols) {
		SSLEngine engine = this.context.createSSLEngine();
		engine.setUseClientMode(false);
		engine.setEnabledProtocols(enabledProtocols.clone());
		if (this.ciphers != null) {
			engine.setEnabledCipherSuites(this.ciphers.clone());
		}
		return engine;
	}

	@Override
	public SSLSocketFactory getSocketFactory() {
		return this.context.getSocketFactory();
	}

	@Override
	public SSLContext getSSLContext() {
		return this.context;
	}

	@Override
	public SSLContext getSSLContext(String protocol) throws GeneralSecurityException {
		return this.context;
	}

	@Override
	public String @Nullable [] getEnabledCipherSuites() {
		return (this.ciphers != null) ? this.ciphers.clone() : null;
	}

	@Override
	public String getEnabledProtocol() {
		return this.protocols[0];
	}

	@Override
	public String[] getEnabledProtocols() {
		return this.protocols.clone();
	}

	@Override
	public ClientAuth getClientAuth() {
		return ClientAuth.NONE;
	}

	@Override
	public String toString() {
		return "FtpTls" + Arrays.toString(this.protocols);
	}

}
