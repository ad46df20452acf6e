package dev.wharf.core.tls;

import java.util.Arrays;
import java.util.List;

import javax.net.ssl.SSLEngine;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;

/**
 * The TLS that Wharf speaks, whatever the SSL configuration asks for: TLS 1.3 and 1.2
 * only, and only AEAD cipher suites with forward secrecy (the TLS 1.3 suites, and ECDHE
 * with AES-GCM or ChaCha20-Poly1305). Without it, Netty's default list also offers CBC
 * suites with SHA-1 and static-RSA key exchange, which testssl.sh flags
 * (docs/reliability.md). The policy only ever narrows: protocols and suites an operator
 * configured stay in force where they are within it, anything outside it is dropped (so a
 * configuration of weak suites only leaves none, and handshakes fail, rather than going
 * weak).
 *
 * <p>
 * The HTTP server gets it through {@code dev.wharf.core.web.TlsPolicyCustomizer};
 * protocol modules that run their own TLS (FTPS) make their engines from a
 * {@link PolicySslContext}. Stateless and thread-safe.
 */
public final class TlsPolicy {

	/** The protocols Wharf allows, newest first. */
	public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

	/**
	 * The suites used when the configuration names none, strongest first (all within the
	 * policy).
	 */
	public static final List<String> DEFAULT_CIPHER_SUITES = List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256",
			"TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
			"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
			"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
			"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

	private TlsPolicy() {
	}

	/**
	 * Whether a cipher suite (by its standard name) is within the policy.
	 * @param suite such as {@code TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}
	 * @return whether it is a TLS 1.3 suite, or ECDHE with an AEAD cipher
	 */
	public static boolean isStrong(String suite) {
		boolean tls13 = suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_");
		boolean forwardSecretAead = suite.startsWith("TLS_ECDHE_")
				&& (suite.contains("_GCM_") || suite.contains("_CHACHA20_POLY1305_"));
		return tls13 || forwardSecretAead;
	}

	/**
	 * The configured protocols within the policy, or the policy's if none are configured.
	 * @param configured the configured protocols, or {@code null}
	 * @return the protocols to enable
	 */
	public static String[] protocols(String @Nullable [] configured) {
		return (configured != null) ? Arrays.stream(configured).filter(PROTOCOLS::contains).toArray(String[]::new)
				: PROTOCOLS.toArray(String[]::new);
	}

	/**
	 * The configured suites within the policy, or {@link #DEFAULT_CIPHER_SUITES} if none
	 * are configured.
	 * @param configured the configured suites, or {@code null}
	 * @return the suites to enable
	 */
	public static String[] cipherSuites(String @Nullable [] configured) {
		return (configured != null) ? Arrays.stream(configured).filter(TlsPolicy::isStrong).toArray(String[]::new)
				: DEFAULT_CIPHER_SUITES.toArray(String[]::new);
	}

	/**
	 * A bundle like the given one, with its options narrowed to the policy.
	 * @param bundle an SSL bundle
	 * @return the narrowed bundle
	 */
	public static SslBundle restrict(SslBundle bundle) {
		SslOptions options = bundle.getOptions();
		SslOptions narrowed = SslOptions.of(cipherSuites(options.getCiphers()),
				protocols(options.getEnabledProtocols()));
		return SslBundle.of(bundle.getStores(), bundle.getKey(), narrowed, bundle.getProtocol(), bundle.getManagers());
	}

	/**
	 * Narrows an engine, before its handshake, to the policy (for servers that make their
	 * own engines).
	 * @param engine the engine
	 */
	public static void restrict(SSLEngine engine) {
		engine.setEnabledProtocols(protocols(engine.getEnabledProtocols()));
		engine.setEnabledCipherSuites(
				Arrays.stream(engine.getEnabledCipherSuites()).filter(TlsPolicy::isStrong).toArray(String[]::new));
	}

}
