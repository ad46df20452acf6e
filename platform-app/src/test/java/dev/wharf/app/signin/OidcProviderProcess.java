package dev.wharf.app.signin;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.Processes;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.fail;

/**
 * The test OpenID Connect provider (module {@code test-oidc-provider}: Spring
 * Authorization Server) as a process of its own, on 127.0.0.1 and a free port, named
 * {@code localhost} in its issuer so the browser sees it as another site than Wharf at
 * 127.0.0.1. It has one confidential client, {@value #CLIENT_ID} with the secret
 * {@value #CLIENT_SECRET}, that must use PKCE and may redirect to one address; its users
 * log in on its own form. Started from the module's classes and the classpath its build
 * writes, with the JVM that runs the tests.
 */
final class OidcProviderProcess implements AutoCloseable {

	static final String CLIENT_ID = "wharf";

	static final String CLIENT_SECRET = "wharf-client-secret";

	private static final Path MODULE = Path.of("..", "test-oidc-provider", "target");

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private final List<String> command;

	private final int port;

	private final Path log;

	private final Thread killer = new Thread(this::stop, "wharf-test-oidc-provider-stop");

	private @Nullable Process process;

	private OidcProviderProcess(List<String> command, int port, Path log) {
		this.command = command;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts the provider.
	 * @param folder where its log goes
	 * @param redirectUri the one address its client may send browsers back to
	 * @param users {@code name:password:group,group} for each user, separated by
	 * {@code ;}
	 * @return the running provider
	 */
	static OidcProviderProcess start(Path folder, String redirectUri, String users)
			throws IOException, InterruptedException {
		Path classes = MODULE.resolve("classes");
		Path classpath = MODULE.resolve("runtime-classpath.txt");
		if (!Files.isDirectory(classes) || !Files.isRegularFile(classpath)) {
			fail("The test OIDC provider is not built: run the build with -am (it builds test-oidc-provider first)");
		}
		int port = FreePorts.loopback();
		String issuer = "http://localhost:" + port;
		String client = "--spring.security.oauth2.authorizationserver.client.wharf.";
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto",
						"-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp",
						classes.toAbsolutePath() + File.pathSeparator
								+ Files.readString(classpath, StandardCharsets.UTF_8).strip(),
						"dev.wharf.testoidc.OidcProviderApplication", "--server.address=127.0.0.1",
						"--server.port=" + port, "--spring.security.oauth2.authorizationserver.issuer=" + issuer,
						client + "registration.client-id=" + CLIENT_ID,
						client + "registration.client-secret={noop}" + CLIENT_SECRET,
						client + "registration.client-authentication-methods=client_secret_basic",
						client + "registration.authorization-grant-types=authorization_code",
						client + "registration.redirect-uris=" + redirectUri,
						client + "registration.scopes=openid,profile,email", client + "require-proof-key=true",
						client + "require-authorization-consent=false", "--test-provider.users=" + users));
		OidcProviderProcess provider = new OidcProviderProcess(command, port, folder.resolve("oidc-provider.log"));
		Runtime.getRuntime().addShutdownHook(provider.killer);
		provider.start();
		return provider;
	}

	/** The issuer, as Wharf is configured with it. */
	String issuer() {
		return "http://localhost:" + this.port;
	}

	/**
	 * Starts the provider (again) on the same port; returns when its discovery document
	 * is served.
	 */
	synchronized void start() throws IOException, InterruptedException {
		if (this.process != null && this.process.isAlive()) {
			return;
		}
		this.process = new ProcessBuilder(this.command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
			.start();
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		HttpRequest discovery = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/.well-known/openid-configuration"))
			.timeout(Duration.ofSeconds(5))
			.build();
		if (Processes.awaitReady(this.process, START_TIMEOUT, Duration.ofMillis(100),
				() -> http.send(discovery, BodyHandlers.discarding()).statusCode() == 200)) {
			return;
		}
		stop();
		fail("The OIDC provider did not start; its log: " + Files.readString(this.log, StandardCharsets.UTF_8));
	}

	/** Stops the provider. */
	synchronized void stop() {
		Processes.kill(this.process);
		this.process = null;
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.killer);
		}
		catch (IllegalStateException shuttingDown) {
			// The hook runs anyway.
		}
	}

}
