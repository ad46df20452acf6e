package dev.wharf.filemanager.oidc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.wharf.core.security.OidcProperties;
import dev.wharf.filemanager.oidc.OidcSignInException.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link OidcClient} against a provider made for each case on 127.0.0.1 (the JDK's HTTP
 * server, ID tokens signed by Nimbus), so that every way an answer can be wrong is tried:
 * the authorization request's PKCE challenge, nonce and state; ID tokens with another
 * nonce, audience or issuer, expired, or signed by a key the provider does not publish; a
 * refused code; a discovery document of another issuer; a provider that cannot be
 * reached. (The whole flow against a real Spring Authorization Server: platform-app's
 * {@code OidcSignInTests}.)
 */
class OidcClientTests {

	static final String CLIENT_ID = "wharf";

	static final String SECRET = "client-secret";

	static final String REDIRECT = "http://127.0.0.1:1/api/session/oidc/callback";

	HttpServer server;

	String issuer;

	final AtomicReference<String> discoveredIssuer = new AtomicReference<>();

	final AtomicReference<Consumer<JWTClaimsSet.Builder>> claims = new AtomicReference<>(c -> {
	});

	final AtomicReference<RSAKey> signingKey = new AtomicReference<>();

	RSAKey publishedKey;

	final AtomicReference<String> lastTokenRequest = new AtomicReference<>();

	volatile int tokenStatus = 200;

	final PendingSignIn pending = PendingSignIn.create();

	@BeforeEach
	void startProvider() throws Exception {
		this.publishedKey = new RSAKeyGenerator(2048).keyID("published").generate();
		this.signingKey.set(this.publishedKey);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
		this.issuer = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.discoveredIssuer.set(this.issuer);
		this.server.createContext("/.well-known/openid-configuration", exchange -> answer(exchange, 200,
				"{\"issuer\":\"" + this.discoveredIssuer.get() + "\",\"authorization_endpoint\":\"" + this.issuer
						+ "/authorize\"," + "\"token_endpoint\":\"" + this.issuer + "/token\",\"jwks_uri\":\""
						+ this.issuer + "/jwks\"," + "\"id_token_signing_alg_values_supported\":[\"RS256\"]}"));
		this.server.createContext("/jwks",
				exchange -> answer(exchange, 200, new JWKSet(this.publishedKey.toPublicJWK()).toString()));
		this.server.createContext("/token", this::token);
		this.server.start();
	}

	@AfterEach
	void stopProvider() {
		this.server.stop(0);
	}

	private void token(HttpExchange exchange) throws IOException {
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		this.lastTokenRequest.set(exchange.getRequestHeaders().getFirst("Authorization") + " " + body);
		if (this.tokenStatus != 200) {
			answer(exchange, this.tokenStatus, "{\"error\":\"invalid_grant\"}");
			return;
		}
		Instant now = Instant.now();
		JWTClaimsSet.Builder idToken = new JWTClaimsSet.Builder().issuer(this.issuer)
			.audience(CLIENT_ID)
			.subject("olivia")
			.claim("preferred_username", "olivia")
			.claim("groups", List.of("staff"))
			.claim("nonce", this.pending.nonce())
			.issueTime(Date.from(now))
			.expirationTime(Date.from(now.plusSeconds(300)));
		this.claims.get().accept(idToken);
		try {
			RSAKey key = this.signingKey.get();
			SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
					idToken.build());
			jwt.sign(new RSASSASigner(key));
			answer(exchange, 200,
					"{\"access_token\":\"access\",\"token_type\":\"Bearer\",\"expires_in\":300,\"id_token\":\""
							+ jwt.serialize() + "\"}");
		}
		catch (Exception ex) {
			answer(exchange, 500, "{}");
		}
	}

	private static void answer(HttpExchange exchange, int status, String json) throws IOException {
		byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		exchange.getResponseBody().write(bytes);
		exchange.close();
	}

	OidcClient client(String issuer) {
		OidcProperties properties = new OidcProperties(issuer, CLIENT_ID, SECRET, "Test", List.of("openid", "profile"),
				"preferred_username", "groups", Duration.ofMinutes(10), null, Duration.ofSeconds(5));
		return new OidcClient(properties, WebClient.create(), Clock.systemUTC());
	}

	@Test
	void theAuthorizationRequestCarriesStateNonceAndAnS256Challenge() throws Exception {
		URI uri = client(this.issuer).authorizationUri(this.pending, REDIRECT).block();
		assertThat(uri).isNotNull();
		String challenge = Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(MessageDigest.getInstance("SHA-256")
				.digest(this.pending.verifier().getBytes(StandardCharsets.US_ASCII)));
		assertThat(uri.toString()).startsWith(this.issuer + "/authorize?")
			.contains("response_type=code")
			.contains("client_id=" + CLIENT_ID)
			.contains("state=" + this.pending.state())
			.contains("nonce=" + this.pending.nonce())
			.contains("code_challenge=" + challenge)
			.contains("code_challenge_method=S256")
			.contains("scope=openid%20profile")
			.doesNotContain(this.pending.verifier());
	}

	@Test
	void aValidIdTokenIsTheSignInAndTheCodeGoesWithTheVerifierAndTheSecret() {
		Jwt idToken = client(this.issuer).signIn(this.pending, "the-code", REDIRECT).block();
		assertThat(idToken).isNotNull();
		assertThat(idToken.getClaimAsString("preferred_username")).isEqualTo("olivia");
		assertThat(idToken.getClaimAsStringList("groups")).containsExactly("staff");
		assertThat(this.lastTokenRequest.get()).startsWith("Basic ")
			.contains("code=the-code")
			.contains("code_verifier=" + this.pending.verifier())
			.contains("grant_type=authorization_code");
	}

	@Test
	void idTokensThatAreNotForThisSignInAreRefused() throws Exception {
		RSAKey stranger = new RSAKeyGenerator(2048).keyID("published").generate();
		Map<String, Runnable> cases = Map.of("another nonce", () -> this.claims.set(c -> c.claim("nonce", "replayed")),
				"no nonce", () -> this.claims.set(c -> c.claim("nonce", null)), "another audience",
				() -> this.claims.set(c -> c.audience("someone-else")), "another issuer",
				() -> this.claims.set(c -> c.issuer("http://127.0.0.1:1")), "expired",
				() -> this.claims.set(c -> c.expirationTime(Date.from(Instant.now().minusSeconds(600)))
					.issueTime(Date.from(Instant.now().minusSeconds(900)))),
				"signed by an unpublished key", () -> this.signingKey.set(stranger));
		for (Map.Entry<String, Runnable> wrong : cases.entrySet()) {
			this.claims.set(c -> {
			});
			this.signingKey.set(this.publishedKey);
			wrong.getValue().run();
			assertThatThrownBy(() -> client(this.issuer).signIn(this.pending, "code", REDIRECT).block())
				.as(wrong.getKey())
				.isInstanceOfSatisfying(OidcSignInException.class,
						ex -> assertThat(ex.outcome()).isEqualTo(Outcome.FAILED));
		}
	}

	@Test
	void aRefusedCodeFailsAndAProviderErrorIsUnavailable() {
		this.tokenStatus = 400;
		assertThatThrownBy(() -> client(this.issuer).signIn(this.pending, "used", REDIRECT).block())
			.isInstanceOfSatisfying(OidcSignInException.class,
					ex -> assertThat(ex.outcome()).isEqualTo(Outcome.FAILED));
	}

	@Test
	void aDiscoveryDocumentOfAnotherIssuerOrNoProviderIsUnavailable() throws Exception {
		this.discoveredIssuer.set("http://127.0.0.1:1");
		assertThatThrownBy(() -> client(this.issuer).authorizationUri(this.pending, REDIRECT).block())
			.isInstanceOfSatisfying(OidcSignInException.class,
					ex -> assertThat(ex.outcome()).isEqualTo(Outcome.UNAVAILABLE));
		int closed;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			closed = socket.getLocalPort();
		}
		assertThatThrownBy(() -> client("http://127.0.0.1:" + closed).authorizationUri(this.pending, REDIRECT).block())
			.isInstanceOfSatisfying(OidcSignInException.class,
					ex -> assertThat(ex.outcome()).isEqualTo(Outcome.UNAVAILABLE));
	}

}
