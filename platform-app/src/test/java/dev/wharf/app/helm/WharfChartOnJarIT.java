package dev.wharf.app.helm;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import dev.wharf.core.security.PasswordHashing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The chart's configuration on the real jar: Wharf's container of a rendered chart run as
 * the kubelet would run it ({@link LocalPod}), so the ConfigMap, the Secrets, the
 * environment and the JVM profile are proven to start Wharf and pass the probes, not only
 * to render.
 */
class WharfChartOnJarIT {

	private static final Duration START = Duration.ofMinutes(3);

	@TempDir
	Path root;

	@Test
	void theSmallProfileStartsPassesItsProbesKeepsStateOnTheVolumeAndStops() throws Exception {
		RenderedChart chart = WharfChart.render(ValueSet.PROFILE_SMALL, freePorts());
		try (LocalPod pod = LocalPod.start(chart, this.root)) {
			pod.awaitStarted(START);
			assertThat(pod.probe("livenessProbe")).isEqualTo(200);
			awaitReady(pod);
			// The JVM runs with the profile's options: SerialGC's pools, a 24 MB heap, a
			// 16 MB code cache.
			// Asked until the heap's pools are there: one run read none at the first
			// scrape.
			HttpClient client = HttpClient.newHttpClient();
			String metrics = await().atMost(Duration.ofSeconds(30))
				.until(() -> get(client, "http://127.0.0.1:" + pod.port("management") + "/actuator/prometheus").body(),
						(body) -> maxBytes(body, "area=\"heap\",id=\"Tenured Gen\"") > 0);
			assertThat(maxBytes(metrics, "area=\"heap\"")).isBetween(16L << 20, 24L << 20);
			assertThat(maxBytes(metrics, "id=\"CodeCache\"")).isEqualTo(16L << 20);
			// The generated admin's password, where NOTES.txt says to look, and its hash
			// on the volume.
			assertThat(pod.log()).containsPattern("user: *admin\\R\\s*password: \\S{20}");
			assertThat(pod.hostPath("/var/lib/wharf/state/initial-admin")).isRegularFile();
			assertThat(pod.hostPath("/var/lib/wharf/data")).isDirectory();
			assertThat(pod.stop()).as("Wharf stops within the pod's grace period").isTrue();
		}
	}

	@Test
	void usersAndTlsFromTheChartsSecretsReachWharf() throws Exception {
		KeyStore keyStore = selfSignedKeyStore();
		Certificate certificate = keyStore.getCertificate("wharf");
		String values = """
				wharf:
				  security:
				    users:
				      - name: alice
				        password: "%s"
				        roles: [admin]
				tls:
				  enabled: true
				  certificate: |
				%s  privateKey: |
				%s""".formatted(PasswordHashing.hash("correct horse"),
				pem("CERTIFICATE", certificate.getEncoded()).indent(4),
				pem("PRIVATE KEY", keyStore.getKey("wharf", PASSWORD).getEncoded()).indent(4));
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS, freePorts(), values);
		try (LocalPod pod = LocalPod.start(chart, this.root)) {
			pod.awaitStarted(START);
			awaitReady(pod);
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(keyStore);
			SSLContext tls = SSLContext.getInstance("TLS");
			tls.init(null, trust.getTrustManagers(), null);
			HttpClient https = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
			HttpResponse<String> response = get(https, "https://127.0.0.1:" + pod.port("http") + "/");
			assertThat(response.sslSession()).hasValueSatisfying((session) -> {
				try {
					assertThat(session.getPeerCertificates()[0]).isEqualTo(certificate);
				}
				catch (javax.net.ssl.SSLPeerUnverifiedException ex) {
					throw new AssertionError(ex);
				}
			});
			// Users come from the Secret, so no admin is generated.
			assertThat(pod.log()).doesNotContain("password: ");
			assertThat(pod.hostPath("/var/lib/wharf/state/initial-admin")).doesNotExist();
		}
	}

	private static final char[] PASSWORD = "changeit".toCharArray();

	/** A self-signed certificate for 127.0.0.1, made by the JDK's keytool. */
	private KeyStore selfSignedKeyStore() throws Exception {
		Path file = this.root.resolve("tls.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "wharf", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
				"-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
				"-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(output).isZero();
		KeyStore keyStore = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(file)) {
			keyStore.load(in, PASSWORD);
		}
		return keyStore;
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	/**
	 * Readiness follows liveness shortly after start-up; the kubelet keeps asking too.
	 */
	private static void awaitReady(LocalPod pod) {
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(pod.probe("readinessProbe")).as(pod::log).isEqualTo(200));
	}

	private static HttpResponse<String> get(HttpClient client, String url) throws IOException, InterruptedException {
		return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The sum of the {@code jvm_memory_max_bytes} series whose tags contain some text.
	 */
	private static long maxBytes(String metrics, String tags) {
		return metrics.lines()
			.filter((line) -> line.startsWith("jvm_memory_max_bytes{") && line.contains(tags))
			.mapToLong((line) -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	/** Values putting Wharf's HTTP and management ports on free ports of this machine. */
	private static String freePorts() throws IOException {
		try (ServerSocket http = new ServerSocket(0); ServerSocket management = new ServerSocket(0)) {
			return "server: {port: %d}%nmanagement: {port: %d}%n".formatted(http.getLocalPort(),
					management.getLocalPort());
		}
	}

}
