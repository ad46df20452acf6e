package dev.wharf.core.tls;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import dev.wharf.core.autoconfigure.WebServerAutoConfiguration;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.core.web.TlsPolicyCustomizer;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.server.reactive.HttpHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link TlsPolicy} and {@link TlsPolicyCustomizer} with real handshakes
 * against Spring Boot's Reactor Netty server on 127.0.0.1, its TLS set up by Spring Boot
 * both ways ({@code server.ssl.bundle}, as the Helm chart does, and
 * {@code server.ssl.key-store}). The JDK client shares this JVM's {@code java.security},
 * which already refuses TLS 1.1, so that probe is OpenSSL's {@code s_client} in a process
 * of its own, with its security level lowered so that only the server can say no.
 */
class TlsPolicyTests {

	private static final String PASSWORD = "changeit";

	private static final String CBC_SHA1 = "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA";

	@TempDir
	static Path temp;

	private WebServer server;

	@BeforeAll
	static void createKey() throws Exception {
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1", "-keyalg",
				"RSA", "-keysize", "2048", "-validity", "2", "-storetype", "PKCS12", "-storepass", PASSWORD,
				"-keystore", temp.resolve("server.p12").toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(output).isZero();
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
			this.server = null;
		}
	}

	/**
	 * Starts Spring Boot's Netty server with TLS from a bundle or from
	 * server.ssl.key-store.
	 */
	private int start(boolean bundle, boolean policy) {
		String keyStore = "file:" + temp.resolve("server.p12");
		Ssl ssl = new Ssl();
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();
		if (bundle) {
			bundles.registerBundle("wharf", SslBundle
				.of(new JksSslStoreBundle(new JksSslStoreDetails("PKCS12", null, keyStore, PASSWORD), null)));
			ssl.setBundle("wharf");
		}
		else {
			ssl.setKeyStore(keyStore);
			ssl.setKeyStorePassword(PASSWORD);
			ssl.setKeyStoreType("PKCS12");
		}
		NettyReactiveWebServerFactory factory = new NettyReactiveWebServerFactory(0);
		factory.setAddress(InetAddress.getLoopbackAddress());
		factory.setSsl(ssl);
		factory.setSslBundles(bundles);
		if (policy) {
			new TlsPolicyCustomizer().customize(factory);
		}
		HttpHandler handler = (request, response) -> response.setComplete();
		this.server = factory.getWebServer(handler);
		this.server.start();
		return this.server.getPort();
	}

	@Test
	void isAutoConfigured() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(WebServerAutoConfiguration.class))
			.run(context -> assertThat(context).hasSingleBean(TlsPolicyCustomizer.class));
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void tls13AndStrongTls12SuitesAreAccepted(boolean bundle) throws Exception {
		int port = start(bundle, true);
		assertThat(handshake(port, "TLSv1.3", null)).startsWith("TLSv1.3 TLS_AES_");
		assertThat(handshake(port, "TLSv1.2", null)).startsWith("TLSv1.2 ")
			.matches(negotiated -> TlsPolicy.isStrong(negotiated.substring("TLSv1.2 ".length())));
		assertThat(handshake(port, "TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"))
			.isEqualTo("TLSv1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void cbcSuitesWithSha1AreRefusedThoughNettyOffersThem(boolean bundle) throws Exception {
		// Without the policy the suite is negotiated: Netty's default list has it.
		assertThat(handshake(start(bundle, false), "TLSv1.2", CBC_SHA1)).isEqualTo("TLSv1.2 " + CBC_SHA1);
		stop();
		int port = start(bundle, true);
		assertThatThrownBy(() -> handshake(port, "TLSv1.2", CBC_SHA1)).isInstanceOf(SSLHandshakeException.class);
	}

	@Test
	void tls11ClientIsRefusedByTheServer() throws Exception {
		Path openssl = Requirements.requireExecutable("openssl", "openssl");
		int port = start(true, true);
		Process client = new ProcessBuilder(openssl.toString(), "s_client", "-connect", "127.0.0.1:" + port, "-tls1_1",
				"-cipher", "DEFAULT@SECLEVEL=0")
			.redirectErrorStream(true)
			.start();
		client.getOutputStream().close();
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		client.getInputStream().transferTo(output);
		if (!client.waitFor(60, TimeUnit.SECONDS)) {
			client.destroyForcibly();
		}
		// The server's alert, not a client-side refusal ("no protocols available").
		assertThat(output.toString()).contains("alert protocol version").doesNotContain("no protocols available");
	}

	/** Handshakes with the JDK's client; returns the protocol and suite negotiated. */
	private static String handshake(int port, String protocol, @Nullable String suite) throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
		try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
			socket.setSoTimeout(30_000);
			socket.setEnabledProtocols(new String[] { protocol });
			if (suite != null) {
				socket.setEnabledCipherSuites(new String[] { suite });
			}
			socket.startHandshake();
			return socket.getSession().getProtocol() + " " + socket.getSession().getCipherSuite();
		}
	}

}
