package dev.wharf.ftp.tls;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

import dev.wharf.core.tls.PolicySslContext;
import dev.wharf.core.tls.TlsPolicy;
import io.netty.handler.ssl.SslHandler;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * TLS for FTPS, from a Spring Boot SSL bundle: the one place where the control connection
 * (through the FTP engine) and each data connection (a Netty {@link SslHandler}) get
 * their SSL context, protocols and cipher suites, all in server mode and held to
 * platform-core's {@link TlsPolicy}: TLS 1.2 and 1.3, AEAD suites with forward secrecy
 * only. Every engine comes from a {@link PolicySslContext}, so engines the FTP engine
 * makes itself ({@code AUTH TLS}) are narrowed too, and suites named in the bundle are
 * narrowed to the policy. When the bundle is reloaded (its files changed), new
 * connections use the new key and certificate.
 *
 * <p>
 * Data connections use TLS 1.2 whenever it is allowed. A TLS 1.3 server sends session
 * tickets after the handshake; a client that only uploads never reads them, and closing a
 * socket with unread data makes the kernel reset the connection and drop what was still
 * queued: lftp's uploads were cut short that way (and then refused, having no
 * {@code close_notify}). In TLS 1.2 tickets are part of the handshake.
 *
 * <p>
 * Thread-safe.
 */
public final class FtpTls {

	/** The only protocols offered. */
	public static final List<String> PROTOCOLS = TlsPolicy.PROTOCOLS;

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
	 * @throws IllegalArgumentException if the bundle asks for protocols other than TLS
	 * 1.2 and 1.3
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
	 * @throws IllegalArgumentException if the bundle asks for protocols other than TLS
	 * 1.2 and 1.3
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
	 * The SSL context of new connections (the bundle's, as last reloaded), its engines
	 * held to the policy.
	 */
	public SSLContext context() {
		return this.context;
	}

	/**
	 * The cipher suites offered, or {@code null} for the policy's choice among the JDK's.
	 */
	public @Nullable List<String> cipherSuites() {
		return (this.ciphers != null) ? List.of(this.ciphers) : null;
	}

	/**
	 * A Netty handler for one data connection, in server mode (the FTP client is the TLS
	 * client in passive and active mode alike, RFC 4217 section 7).
	 * @param handshakeTimeout how long the handshake may take
	 * @return a new handler
	 */
	public SslHandler newDataHandler(Duration handshakeTimeout) {
		SslHandler handler = new SslHandler(newEngine(this.dataProtocols));
		handler.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
		return handler;
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
	public String toString() {
		return "FtpTls" + Arrays.toString(this.protocols);
	}

}
