package dev.wharf.filemanager.session;

import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.BasicAuthorization;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.auth.RecentSignIn;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Clients;
import dev.wharf.filemanager.http.JsonBody;
import dev.wharf.filemanager.http.Query;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JsonGenerator;

/**
 * {@code /api/tokens}, API tokens for scripts and API clients
 * ({@code Authorization: Bearer <token>}):
 * <ul>
 * <li>{@code POST ?name=ci[&days=90]} mints a token. It must be authenticated with the
 * account's password (HTTP Basic), never with another token, and with the session cookie
 * only where {@link RecentSignIn} allows it (users of an OIDC provider, who have no
 * password, within a few minutes of signing in): a stolen token, or a cookie stolen
 * later, cannot mint more. The token is in this one answer and nowhere else (only its
 * digest is kept). Throttled and audited like every login.</li>
 * <li>{@code GET} lists the caller's tokens (id, name, dates; never a secret).</li>
 * <li>{@code DELETE ?id=} revokes one; it stops working at once.</li>
 * </ul>
 * Listing and revoking take HTTP Basic as minting does (so a script that mints with
 * {@code curl -u} can clean up the same way), or a session or a token. A 401 here never
 * carries {@code WWW-Authenticate: Basic}, so a browser never offers to remember the
 * password for Wharf's origin (remembered Basic credentials would be sent with forged
 * requests).
 */
public final class TokenHandlers {

	/** Longest validity a token may be given. */
	static final int MAX_DAYS = 3650;

	private final Authenticator authenticator;

	private final ApiTokens tokens;

	private final CallerResolver callers;

	private final AuditTrail audit;

	private final RecentSignIn recentSignIn;

	/**
	 * Creates the handlers.
	 * @param authenticator checks passwords
	 * @param tokens the API tokens
	 * @param callers establishes callers for listing and revoking
	 * @param audit the audit trail
	 * @param recentSignIn whether a session may mint a token without the password
	 */
	public TokenHandlers(Authenticator authenticator, ApiTokens tokens, CallerResolver callers, AuditTrail audit,
			RecentSignIn recentSignIn) {
		this.authenticator = authenticator;
		this.tokens = tokens;
		this.callers = callers;
		this.audit = audit;
		this.recentSignIn = recentSignIn;
	}

	/**
	 * The handler of {@code /api/tokens}, for {@code GET}, {@code POST} and
	 * {@code DELETE}.
	 */
	public WebHandler handler() {
		return exchange -> {
			HttpMethod method = exchange.getRequest().getMethod();
			if (method == HttpMethod.POST) {
				return mint(exchange);
			}
			AuthenticatedHandler handler = (method == HttpMethod.DELETE) ? this::revoke : this::list;
			return caller(exchange).flatMap(caller -> handler.handle(exchange, caller));
		};
	}

	/**
	 * Who lists or revokes: with HTTP Basic the account's password, as for minting; else
	 * a session or a token.
	 */
	private Mono<Caller> caller(ServerWebExchange exchange) {
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization != null && BasicAuthorization.isBasic(authorization)) {
			return passwordLogin(exchange, authorization).map(user -> new Caller(user, null, null));
		}
		return this.callers.resolve(exchange, false);
	}

	private Mono<Void> mint(ServerWebExchange exchange) {
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		Mono<User> minter;
		if (authorization != null && BasicAuthorization.isBasic(authorization)) {
			minter = passwordLogin(exchange, authorization);
		}
		else if (authorization == null && this.recentSignIn.isPossible()
				&& CallerResolver.sessionCookie(exchange.getRequest()) != null) {
			minter = this.callers.resolve(exchange, false).flatMap(caller -> {
				if (!this.recentSignIn.allows(caller)) {
					this.audit.record(exchange, caller.name(), "token-create", null, "denied");
					return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED, this.recentSignIn.rule()));
				}
				return Mono.just(caller.user());
			});
		}
		else {
			return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED, this.recentSignIn.rule()));
		}
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		String label = query.optional("name");
		Duration validity = validity(query.optional("days"));
		return minter
			.flatMap(user -> this.tokens.issue(user, (label != null) ? label : "token", validity).flatMap(issued -> {
				this.audit.record(exchange, user.name(), "token-create", "token:" + issued.token().id(), "success");
				JsonBody json = JsonBody.write(320, out -> {
					out.writeStartObject()
						.writeStringProperty("status", "ok")
						.writeObjectPropertyStart("result")
						.writeStringProperty("token", issued.secret());
					fields(out, issued.token());
					out.writeEndObject().writeEndObject();
				});
				return ApiResponses.json(exchange, HttpStatus.CREATED, json, "no-store");
			}));
	}

	/**
	 * Checks a Basic header's name and password through the shared authenticator
	 * (throttled and audited like every login).
	 * @param exchange the exchange, for the client's address
	 * @param authorization the {@code Authorization} header, of the Basic scheme
	 * @return the user; fails with 400 (malformed), 401, 403 (no file manager role) or
	 * 429
	 */
	private Mono<User> passwordLogin(ServerWebExchange exchange, String authorization) {
		Credentials credentials = BasicAuthorization.parse(authorization).orElse(null);
		if (credentials == null) {
			return Mono.error(ApiException.badRequest("Malformed Basic credentials"));
		}
		return this.authenticator
			.login(AuditTrail.PROTOCOL, credentials.username(), credentials.password(), Clients.address(exchange))
			.flatMap(result -> {
				if (!(result instanceof LoginResult.Success success)) {
					return Mono.error(LoginErrors.of(result));
				}
				User user = success.user();
				if (!user.hasRole(Role.USER)) {
					return Mono
						.error(new ApiException(HttpStatus.FORBIDDEN, "This account cannot use the file manager"));
				}
				return Mono.just(user);
			});
	}

	private Mono<Void> list(ServerWebExchange exchange, Caller caller) {
		return this.tokens.list(caller.name()).collectList().flatMap(found -> {
			JsonBody json = JsonBody.write(64 + found.size() * 128, out -> {
				out.writeStartObject().writeStringProperty("status", "ok").writeArrayPropertyStart("results");
				for (ApiToken token : found) {
					out.writeStartObject();
					fields(out, token);
					out.writeEndObject();
				}
				out.writeEndArray().writeEndObject();
			});
			return ApiResponses.json(exchange, HttpStatus.OK, json, "no-store");
		});
	}

	private Mono<Void> revoke(ServerWebExchange exchange, Caller caller) {
		String id = new Query(exchange.getRequest().getURI().getRawQuery()).required("id");
		return this.tokens.revoke(caller.name(), id).flatMap(removed -> {
			this.audit.record(exchange, caller.name(), "token-revoke", "token:" + id,
					removed ? "success" : "not_found");
			return removed ? ApiResponses.ok(exchange) : Mono.error(ApiException.notFound());
		});
	}

	private static void fields(JsonGenerator json, ApiToken token) {
		json.writeStringProperty("id", token.id())
			.writeStringProperty("name", token.label())
			.writeNumberProperty("created", token.created().toEpochMilli());
		Instant expires = token.expires();
		if (expires != null) {
			json.writeNumberProperty("expires", expires.toEpochMilli());
		}
		else {
			json.writeNullProperty("expires");
		}
	}

	private static @Nullable Duration validity(@Nullable String days) {
		if (days == null) {
			return null;
		}
		try {
			int count = Integer.parseInt(days);
			if (count >= 1 && count <= MAX_DAYS) {
				return Duration.ofDays(count);
			}
		}
		catch (NumberFormatException ex) {
			// Answered below.
		}
		throw ApiException.badRequest("'days' must be a whole number from 1 to " + MAX_DAYS);
	}

}
