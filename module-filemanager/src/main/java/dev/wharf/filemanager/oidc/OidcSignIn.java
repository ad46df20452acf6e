package dev.wharf.filemanager.oidc;

import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.OidcProperties;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.SessionLimitException;
import dev.wharf.core.session.Sessions;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.SessionCookie;
import dev.wharf.filemanager.http.Clients;
import dev.wharf.filemanager.http.Query;
import dev.wharf.filemanager.oidc.OidcSignInException.Outcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * Sign-in to the web UI through an OpenID Connect provider, in two steps that end in a
 * normal Wharf session:
 * <ul>
 * <li>{@code GET} {@value #START} (the UI's "Sign in with …" link) sends the browser to
 * the provider with a fresh state, nonce and PKCE challenge, which a cookie of this path
 * keeps ({@code HttpOnly}, {@code SameSite=Lax} so the provider's redirect back brings
 * it, ten minutes).</li>
 * <li>{@code GET} {@value #CALLBACK}, where the provider sends the browser back: the
 * state must be the cookie's, the code is exchanged and the ID token checked
 * ({@link OidcClient}), the user's name comes from the {@code username-claim} and their
 * rights from the {@code groups-claim} by {@code wharf.security.directory.rules}; then a
 * session starts as after a password login ({@code auth} cookie) and the browser goes to
 * the UI.</li>
 * </ul>
 * A name that is a configured user's is refused (a provider cannot take over a configured
 * account), and so is a user that no rule lets use the file manager. Every outcome is
 * audited ({@code login} with target {@code oidc}); what went wrong goes to the UI as
 * {@code ?signin=failed|denied|unavailable|busy}, never as details. Runs on the event
 * loop and never blocks.
 */
public final class OidcSignIn {

	/** Where the UI's sign-in link points. */
	public static final String START = "/api/session/oidc";

	/** Where the provider sends the browser back; register it with the provider. */
	public static final String CALLBACK = START + "/callback";

	/** The cookie that carries a sign-in under way. */
	static final String COOKIE = "wharf-oidc";

	/** How long a sign-in may take at the provider. */
	static final Duration PENDING_TIME = Duration.ofMinutes(10);

	private static final Log logger = LogFactory.getLog(OidcSignIn.class);

	private final OidcProperties properties;

	private final OidcClient client;

	private final ExternalUsers users;

	private final Predicate<String> configured;

	private final Sessions sessions;

	private final AuditTrail audit;

	/**
	 * Creates the handlers.
	 * @param properties the provider's settings
	 * @param client the provider's client
	 * @param users where users who signed in are remembered, with the rules
	 * @param configured tells whether a name is a configured user's
	 * @param sessions where sessions start
	 * @param audit the audit trail
	 */
	public OidcSignIn(OidcProperties properties, OidcClient client, ExternalUsers users, Predicate<String> configured,
			Sessions sessions, AuditTrail audit) {
		this.properties = properties;
		this.client = client;
		this.users = users;
		this.configured = configured;
		this.sessions = sessions;
		this.audit = audit;
	}

	/** The handler of {@value #START}. */
	public WebHandler start() {
		return exchange -> {
			PendingSignIn pending = PendingSignIn.create();
			return this.client.authorizationUri(pending, redirectUri(exchange)).flatMap(uri -> {
				exchange.getResponse().addCookie(pendingCookie(exchange, pending.cookieValue(), PENDING_TIME));
				return redirect(exchange, uri);
			}).onErrorResume(OidcSignInException.class, failed -> {
				logger.warn("OIDC sign-in cannot start: " + failed.getMessage());
				return toUi(exchange, failed.outcome());
			});
		};
	}

	/** The handler of {@value #CALLBACK}. */
	public WebHandler callback() {
		return exchange -> {
			ServerHttpRequest request = exchange.getRequest();
			HttpCookie cookie = request.getCookies().getFirst(COOKIE);
			PendingSignIn pending = PendingSignIn.parse((cookie != null) ? cookie.getValue() : null);
			// Used once, whatever happens.
			exchange.getResponse().addCookie(pendingCookie(exchange, "", Duration.ZERO));
			Query query = new Query(request.getURI().getRawQuery());
			String code = query.optional("code");
			Mono<Void> signIn;
			if (pending == null || !pending.matches(query.optional("state"))) {
				signIn = Mono.error(new OidcSignInException(Outcome.FAILED,
						"the state is not the one this browser's sign-in sent (started elsewhere, expired, or forged)"));
			}
			else if (query.optional("error") != null || code == null) {
				signIn = Mono.error(new OidcSignInException(Outcome.FAILED,
						"the provider sent no code: " + String.valueOf(query.optional("error"))));
			}
			else {
				signIn = this.client.signIn(pending, code, redirectUri(exchange))
					.flatMap(idToken -> start(exchange, idToken));
			}
			return signIn.onErrorResume(OidcSignInException.class, failed -> {
				logger.info("OIDC sign-in " + failed.outcome().code() + ": " + failed.getMessage());
				this.audit.record(exchange, null, "login", "oidc", failed.outcome().code());
				return toUi(exchange, failed.outcome());
			});
		};
	}

	/** Makes the user of a valid ID token, and starts their session. */
	private Mono<Void> start(ServerWebExchange exchange, Jwt idToken) {
		String name = idToken.getClaimAsString(this.properties.usernameClaim());
		if (name == null || !User.isValidName(name)) {
			return Mono.error(new OidcSignInException(Outcome.FAILED,
					"the ID token's " + this.properties.usernameClaim() + " is no valid user name"));
		}
		if (this.configured.test(name)) {
			this.audit.record(exchange, name, "login", "oidc", "denied");
			logger.warn("OIDC sign-in refused for '" + name + "': a configured user has that name");
			return toUi(exchange, Outcome.DENIED);
		}
		return this.users.signedIn(name, Source.OIDC, groups(idToken)).flatMap(found -> {
			User user = found.orElse(null);
			if (user == null || !user.hasRole(Role.USER)) {
				this.audit.record(exchange, name, "login", "oidc", "denied");
				return toUi(exchange, Outcome.DENIED);
			}
			String client = Clients.address(exchange);
			return this.sessions.create(user, client, null).flatMap(created -> {
				this.audit.record(exchange, name, "login", "oidc", "success");
				this.audit.record(exchange, name, "session-start", null, "success");
				exchange.getResponse().addCookie(SessionCookie.of(exchange, created.secret(), this.sessions.maxAge()));
				return toUi(exchange, null);
			}).onErrorResume(SessionLimitException.class, refused -> {
				this.audit.record(exchange, name, "session-start", null, "refused");
				return toUi(exchange, Outcome.BUSY);
			});
		});
	}

	/** The groups claim's values: a list of strings, or one string. */
	private Collection<String> groups(Jwt idToken) {
		Object claim = idToken.getClaims().get(this.properties.groupsClaim());
		if (claim instanceof Collection<?> values) {
			return values.stream().filter(String.class::isInstance).map(String.class::cast).toList();
		}
		return (claim instanceof String value) ? List.of(value) : List.of();
	}

	/**
	 * Where the provider sends the browser back: configured, or this server's own address
	 * as the browser used it.
	 */
	private String redirectUri(ServerWebExchange exchange) {
		String configured = this.properties.redirectUri();
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		ServerHttpRequest request = exchange.getRequest();
		return UriComponentsBuilder.fromUri(request.getURI())
			.replacePath(request.getPath().contextPath().value() + CALLBACK)
			.replaceQuery(null)
			.fragment(null)
			.build()
			.toUriString();
	}

	private static ResponseCookie pendingCookie(ServerWebExchange exchange, String value, Duration maxAge) {
		return ResponseCookie.from(COOKIE, value)
			.path(exchange.getRequest().getPath().contextPath().value() + START)
			.httpOnly(true)
			// Lax: the provider's redirect back is a top-level navigation from another
			// site, which Strict would strip.
			.sameSite("Lax")
			.secure(Clients.isSecure(exchange))
			.maxAge(maxAge)
			.build();
	}

	private static Mono<Void> redirect(ServerWebExchange exchange, URI location) {
		exchange.getResponse().setStatusCode(HttpStatus.FOUND);
		HttpHeaders headers = exchange.getResponse().getHeaders();
		headers.setLocation(location);
		headers.setCacheControl("no-store");
		return exchange.getResponse().setComplete();
	}

	/** Sends the browser to the UI, with what went wrong if anything did. */
	private static Mono<Void> toUi(ServerWebExchange exchange, @Nullable Outcome failure) {
		String ui = exchange.getRequest().getPath().contextPath().value() + "/";
		return redirect(exchange, URI.create((failure != null) ? ui + "?signin=" + failure.code() : ui));
	}

}
