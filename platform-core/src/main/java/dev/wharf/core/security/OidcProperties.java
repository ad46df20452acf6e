package dev.wharf.core.security;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Sign-in to the file manager's web UI through an OpenID Connect provider
 * ({@code wharf.security.oidc}), off unless {@code issuer} is set: the authorization code
 * flow with PKCE, a state and a nonce, the ID token checked against the provider's keys.
 * The user's name and groups come from the ID token's claims, and
 * {@code wharf.security.directory.rules} turn the groups into rights. Such users have no
 * password: for FTP, the build cache and scripts they mint API tokens in the UI within
 * {@code token-window} of signing in.
 *
 * @param issuer the provider's issuer URL, as its discovery document
 * ({@code /.well-known/openid-configuration}) names it
 * @param clientId Wharf's client id at the provider
 * @param clientSecret Wharf's client secret (sent with HTTP Basic); not set for a public
 * client, which PKCE alone protects
 * @param name what the sign-in button calls the provider: "Sign in with {name}"
 * @param scopes the scopes asked for; {@code openid} is always asked for
 * @param usernameClaim the ID token claim that holds the user's name
 * @param groupsClaim the ID token claim that holds the user's groups (a list of strings,
 * or one string)
 * @param tokenWindow how long after signing in a user may mint an API token with the
 * session alone
 * @param redirectUri where the provider sends the browser back, if it cannot be worked
 * out from the request (behind a proxy that hides the public address);
 * {@code …/api/session/oidc/callback}
 * @param timeout how long to wait for each answer of the provider
 */
@ConfigurationProperties("wharf.security.oidc")
public record OidcProperties(@Nullable String issuer, @Nullable String clientId, @Nullable String clientSecret,
		@DefaultValue("SSO") String name, @DefaultValue( {
				"openid", "profile", "email" }) List<String> scopes,
		@DefaultValue("preferred_username") String usernameClaim, @DefaultValue("groups") String groupsClaim,
		@DefaultValue("10m") Duration tokenWindow, @Nullable String redirectUri, @DefaultValue("10s") Duration timeout){

	private static final String PREFIX = "wharf.security.oidc.";

	public OidcProperties {
		scopes = List.copyOf(scopes);
		if (issuer != null && !issuer.isBlank()) {
			url("issuer", issuer);
			if (clientId == null || clientId.isBlank()) {
				throw new InvalidConfigurationException(PREFIX + "client-id", null, "is needed with an issuer");
			}
			if (redirectUri != null && !redirectUri.isBlank()) {
				url("redirect-uri", redirectUri);
			}
			if (usernameClaim.isBlank()) {
				throw new InvalidConfigurationException(PREFIX + "username-claim", "", "must name a claim");
			}
		}
		if (tokenWindow.isNegative() || tokenWindow.compareTo(Duration.ofHours(1)) > 0) {
			throw new InvalidConfigurationException(PREFIX + "token-window", tokenWindow.toString(),
					"must be from 0 (tokens only with a password) to 1 hour");
		}
		if (timeout.compareTo(Duration.ofMillis(100)) < 0) {
			throw new InvalidConfigurationException(PREFIX + "timeout", timeout.toString(), "must be at least 100ms");
		}
	}

	private static void url(String property, String value) {
		try {
			URI uri = URI.create(value);
			if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme()) || uri.getHost() == null) {
				throw new IllegalArgumentException("not http(s)");
			}
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationException(PREFIX + property, value, "must be an http:// or https:// URL");
		}
	}

	/** Whether OIDC sign-in is on: an issuer is configured. */
	public boolean enabled() {
		return this.issuer != null && !this.issuer.isBlank();
	}

	/** Never shows the client secret. */
	@Override
	public String toString() {
		return "OidcProperties[issuer=" + this.issuer + ", clientId=" + this.clientId + ", name=" + this.name + "]";
	}

}
