package dev.wharf.filemanager.oidc;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import dev.wharf.core.security.OidcProperties;
import dev.wharf.filemanager.oidc.OidcSignInException.Outcome;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.endpoint.WebClientReactiveAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.oidc.authentication.OidcIdTokenValidator;
import org.springframework.security.oauth2.client.oidc.authentication.ReactiveOidcIdTokenDecoderFactory;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.converter.ClaimTypeConverter;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationResponse;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;

/**
 * Wharf's client of one OpenID Connect provider ({@link OidcProperties}), on Spring
 * Security's OAuth 2.0 client without its web filter chain: the provider's endpoints and
 * keys from its discovery document (fetched when first needed, and again after an hour or
 * after a failure, so Wharf starts while the provider is down), the authorization request
 * with PKCE ({@code S256}) and a nonce, the code exchanged at the token endpoint, and the
 * ID token checked as OpenID Connect requires: signed by one of the provider's keys,
 * issued by the configured issuer for Wharf's client id, not expired, and carrying the
 * nonce that was sent. Every call to the provider is bounded by {@code timeout}.
 * Thread-safe; never blocks.
 */
public final class OidcClient {

	private static final String DISCOVERY = "/.well-known/openid-configuration";

	private static final Duration DISCOVERY_TIME = Duration.ofHours(1);

	private final OidcProperties properties;

	private final WebClient web;

	private final Clock clock;

	private final WebClientReactiveAuthorizationCodeTokenResponseClient tokens = new WebClientReactiveAuthorizationCodeTokenResponseClient();

	private final Mono<Provider> provider;

	/**
	 * Creates the client.
	 * @param properties the provider and Wharf's registration there, with an issuer
	 * @param web the HTTP client for the provider, with its connect and response timeouts
	 * @param clock the time ID tokens are checked against
	 */
	public OidcClient(OidcProperties properties, WebClient web, Clock clock) {
		this.properties = properties;
		this.web = web;
		this.clock = clock;
		this.tokens.setWebClient(web);
		this.provider = Mono.defer(this::discover)
			.cache(found -> DISCOVERY_TIME, failure -> Duration.ZERO, () -> Duration.ZERO);
	}

	/**
	 * Where to send the browser to sign in.
	 * @param pending the sign-in's state, nonce and verifier
	 * @param redirectUri where the provider sends the browser back
	 * @return the provider's authorization URL; fails with {@link OidcSignInException} if
	 * the provider cannot be asked
	 */
	Mono<URI> authorizationUri(PendingSignIn pending, String redirectUri) {
		return this.provider
			.map(found -> URI.create(request(found.registration(), pending, redirectUri).getAuthorizationRequestUri()));
	}

	/**
	 * Finishes a sign-in: exchanges the code and checks the ID token.
	 * @param pending the sign-in the browser started
	 * @param code the code the provider sent back
	 * @param redirectUri the address the provider sent the browser back to, as in the
	 * authorization request
	 * @return the ID token; fails with {@link OidcSignInException}
	 */
	Mono<Jwt> signIn(PendingSignIn pending, String code, String redirectUri) {
		return this.provider.flatMap(found -> {
			OAuth2AuthorizationRequest request = request(found.registration(), pending, redirectUri);
			OAuth2AuthorizationResponse response = OAuth2AuthorizationResponse.success(code)
				.redirectUri(redirectUri)
				.state(pending.state())
				.build();
			return this.tokens
				.getTokenResponse(new OAuth2AuthorizationCodeGrantRequest(found.registration(),
						new OAuth2AuthorizationExchange(request, response)))
				.timeout(this.properties.timeout())
				.flatMap(answer -> {
					Object idToken = answer.getAdditionalParameters().get(OidcParameterNames.ID_TOKEN);
					if (!(idToken instanceof String token)) {
						return Mono
							.error(new OidcSignInException(Outcome.FAILED, "The token response has no ID token"));
					}
					return found.idTokens().decode(token).timeout(this.properties.timeout());
				})
				.flatMap(idToken -> pending.nonce().equals(idToken.getClaimAsString(OidcParameterNames.NONCE))
						? Mono.just(idToken) : Mono.error(
								new OidcSignInException(Outcome.FAILED, "The ID token does not carry the nonce sent")));
		}).onErrorMap(error -> !(error instanceof OidcSignInException), OidcClient::classify);
	}

	private OAuth2AuthorizationRequest request(ClientRegistration registration, PendingSignIn pending,
			String redirectUri) {
		// Spring's builder refuses an authorization-code registration without an
		// authorization endpoint.
		String authorizationUri = Objects.requireNonNull(registration.getProviderDetails().getAuthorizationUri(),
				"An OIDC provider without an authorization endpoint");
		return OAuth2AuthorizationRequest.authorizationCode()
			.authorizationUri(authorizationUri)
			.clientId(registration.getClientId())
			.redirectUri(redirectUri)
			.scopes(registration.getScopes())
			.state(pending.state())
			.additionalParameters(Map.of(OidcParameterNames.NONCE, pending.nonce(), PkceParameterNames.CODE_CHALLENGE,
					pending.challenge(), PkceParameterNames.CODE_CHALLENGE_METHOD, "S256"))
			.attributes(Map.of(PkceParameterNames.CODE_VERIFIER, pending.verifier(), OidcParameterNames.NONCE,
					pending.nonce()))
			.build();
	}

	private Mono<Provider> discover() {
		String issuer = String.valueOf(this.properties.issuer());
		String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
		return this.web.get()
			.uri(URI.create(base + DISCOVERY))
			.retrieve()
			.bodyToMono(new ParameterizedTypeReference<Map<String, Object>>() {
			})
			.timeout(this.properties.timeout())
			.map(metadata -> provider(issuer, metadata))
			.onErrorMap(error -> !(error instanceof OidcSignInException), OidcClient::classify);
	}

	private Provider provider(String issuer, Map<String, Object> metadata) {
		if (!issuer.equals(metadata.get("issuer"))) {
			throw new OidcSignInException(Outcome.UNAVAILABLE, "The provider's discovery document names the issuer '"
					+ metadata.get("issuer") + "', not the configured '" + issuer + "'");
		}
		String secret = this.properties.clientSecret();
		boolean confidential = secret != null && !secret.isEmpty();
		Set<String> scopes = new LinkedHashSet<>(List.of("openid"));
		scopes.addAll(this.properties.scopes());
		ClientRegistration registration = ClientRegistration.withRegistrationId("wharf")
			.clientId(String.valueOf(this.properties.clientId()))
			.clientSecret(confidential ? secret : null)
			.clientAuthenticationMethod(
					confidential ? ClientAuthenticationMethod.CLIENT_SECRET_BASIC : ClientAuthenticationMethod.NONE)
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.redirectUri("{baseUrl}" + OidcSignIn.CALLBACK)
			.scope(scopes)
			.authorizationUri(text(metadata, "authorization_endpoint"))
			.tokenUri(text(metadata, "token_endpoint"))
			.jwkSetUri(text(metadata, "jwks_uri"))
			.issuerUri(issuer)
			.userNameAttributeName(this.properties.usernameClaim())
			.providerConfigurationMetadata(metadata)
			.build();
		NimbusReactiveJwtDecoder decoder = NimbusReactiveJwtDecoder.withJwkSetUri(text(metadata, "jwks_uri"))
			.webClient(this.web)
			.jwsAlgorithms(algorithms -> algorithms.addAll(algorithms(metadata)))
			.build();
		OidcIdTokenValidator idToken = new OidcIdTokenValidator(registration);
		idToken.setClock(this.clock);
		JwtTimestampValidator timestamps = new JwtTimestampValidator();
		timestamps.setClock(this.clock);
		decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(timestamps, idToken));
		decoder.setClaimSetConverter(
				new ClaimTypeConverter(ReactiveOidcIdTokenDecoderFactory.createDefaultClaimTypeConverters()));
		return new Provider(registration, decoder);
	}

	/**
	 * The signature algorithms the provider says it signs ID tokens with; RS256 (which
	 * OpenID Connect requires) if it says none.
	 */
	private static List<SignatureAlgorithm> algorithms(Map<String, Object> metadata) {
		List<SignatureAlgorithm> algorithms = new ArrayList<>();
		if (metadata.get("id_token_signing_alg_values_supported") instanceof List<?> names) {
			for (Object name : names) {
				SignatureAlgorithm algorithm = (name instanceof String text) ? SignatureAlgorithm.from(text) : null;
				if (algorithm != null) {
					algorithms.add(algorithm);
				}
			}
		}
		return algorithms.isEmpty() ? List.of(SignatureAlgorithm.RS256) : algorithms;
	}

	private static String text(Map<String, Object> metadata, String name) {
		if (!(metadata.get(name) instanceof String value) || value.isBlank()) {
			throw new OidcSignInException(Outcome.UNAVAILABLE, "The provider's discovery document has no " + name);
		}
		return value;
	}

	/**
	 * Whether the provider could not be asked (try again later) or answered with a
	 * refusal.
	 */
	private static OidcSignInException classify(Throwable error) {
		if (error instanceof WebClientRequestException || error instanceof TimeoutException
				|| (error instanceof WebClientResponseException response
						&& response.getStatusCode().is5xxServerError())) {
			return new OidcSignInException(Outcome.UNAVAILABLE, "The provider cannot be reached: " + error.getMessage(),
					error);
		}
		if (error instanceof OAuth2AuthorizationException refused) {
			return new OidcSignInException(Outcome.FAILED, "The provider refused the code: " + refused.getError(),
					error);
		}
		if (error instanceof JwtException invalid) {
			return new OidcSignInException(Outcome.FAILED, "The ID token is not valid: " + invalid.getMessage(), error);
		}
		return new OidcSignInException(Outcome.UNAVAILABLE,
				"The provider's answer cannot be used: " + error.getMessage(), error);
	}

	/**
	 * What discovery found: Wharf's registration with the provider's endpoints, and the
	 * ID token checks.
	 */
	private record Provider(ClientRegistration registration, NimbusReactiveJwtDecoder idTokens) {
	}

}
