package dev.wharf.buildcache.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Logging in with a TLS client certificate: the server asks for one
 * ({@code client-auth: want}) and trusts two; the one whose CN is a configured writer may
 * store entries without a password, the one whose CN is nobody is anonymous, a client
 * without a certificate is too, and Basic credentials win over a certificate. Keys and
 * certificates are made by the JDK's keytool for each run.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class ClientCertificateTests {

	private static final String PASSWORD = "changeit";

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		WharfTestProperties.memoryMount(registry, temp);
		CacheTestUsers.register(registry);
		keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1", "-keystore",
				"server.p12");
		keytool("-genkeypair", "-alias", "writer", "-dname", "CN=" + CacheTestUsers.WRITER + ",O=CI", "-keystore",
				"writer.p12");
		keytool("-genkeypair", "-alias", "stranger", "-dname", "CN=stranger", "-keystore", "stranger.p12");
		for (String name : List.of("writer", "stranger")) {
			keytool("-exportcert", "-alias", name, "-keystore", name + ".p12", "-file", name + ".crt");
			keytool("-importcert", "-noprompt", "-alias", name, "-file", name + ".crt", "-keystore", "clients.p12");
		}
		keytool("-exportcert", "-alias", "server", "-keystore", "server.p12", "-file", "server.crt");
		keytool("-importcert", "-noprompt", "-alias", "server", "-file", "server.crt", "-keystore", "servers.p12");
		registry.add("server.ssl.enabled", () -> "true");
		registry.add("server.ssl.key-store", () -> temp.resolve("server.p12").toString());
		registry.add("server.ssl.key-store-password", () -> PASSWORD);
		registry.add("server.ssl.key-store-type", () -> "PKCS12");
		registry.add("server.ssl.trust-store", () -> temp.resolve("clients.p12").toString());
		registry.add("server.ssl.trust-store-password", () -> PASSWORD);
		registry.add("server.ssl.trust-store-type", () -> "PKCS12");
		registry.add("server.ssl.client-auth", () -> "want");
		registry.add("wharf.buildcache.client-certificates.enabled", () -> "true");
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
		command.addAll(List.of(arguments));
		if (arguments[0].equals("-genkeypair")) {
			command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2"));
		}
		command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
		Process process = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new IOException("keytool " + String.join(" ", arguments) + " failed: " + output);
		}
	}

	private static HttpClient client(@Nullable String keyStore) throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		KeyManagerFactory keys = null;
		if (keyStore != null) {
			keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(load(keyStore), PASSWORD.toCharArray());
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load("servers.p12"));
		context.init((keys != null) ? keys.getKeyManagers() : null, trust.getTrustManagers(), null);
		return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(30)).build();
	}

	private static KeyStore load(String name) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(temp.resolve(name))) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private HttpResponse<byte[]> send(HttpClient client, String method, String key, byte @Nullable [] body,
			String... headers) throws Exception {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("https://127.0.0.1:" + this.port + "/cache/" + key))
			.timeout(Duration.ofSeconds(30))
			.method(method, (body != null) ? BodyPublishers.ofByteArray(body) : BodyPublishers.noBody());
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return client.send(request.build(), BodyHandlers.ofByteArray());
	}

	@Test
	void aCertificateNamingAWriterStoresEntriesWithoutAPassword() throws Exception {
		HttpClient writer = client("writer.p12");
		assertThat(send(writer, "PUT", "by-certificate", new byte[] { 1, 2, 3 }).statusCode()).isEqualTo(201);
		assertThat(send(writer, "GET", "by-certificate", null).body()).containsExactly(1, 2, 3);
		// Credentials in the request win over the certificate.
		assertThat(send(writer, "PUT", "by-certificate", new byte[] { 4 }, "Authorization",
				RawHttp.basic(CacheTestUsers.READER, CacheTestUsers.READER_PASSWORD))
			.statusCode()).isEqualTo(403);
	}

	@Test
	void withoutACertificateOfAUserTheCallerIsAnonymous() throws Exception {
		for (HttpClient client : List.of(client(null), client("stranger.p12"))) {
			HttpResponse<byte[]> response = send(client, "GET", "by-certificate", null);
			assertThat(response.statusCode()).isEqualTo(401);
			assertThat(response.headers().firstValue("WWW-Authenticate"))
				.hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Basic realm="));
		}
	}

}
