package dev.wharf.filemanager.session;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Clients;
import dev.wharf.filemanager.http.JsonWriter;
import dev.wharf.filemanager.http.Query;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * {@code /api/tokens}, API tokens for scripts and API clients ({@code Authorization: Bearer <token>}):
 * <ul>
 * <li>{@code POST ?name=ci[&days=90]} mints a token. It must be authenticated with the account's password
 * (HTTP Basic), never with the session cookie or another token: a stolen cookie or token cannot mint
 * more. The token is in this one answer and nowhere else (only its digest is kept). Throttled and audited
 * like every login.</li>
 * <li>{@code GET} lists the caller's tokens (id, name, dates; never a secret).</li>
 * <li>{@code DELETE ?id=} revokes one; it stops working at once.</li>
 * </ul>
 * A 401 here never carries {@code WWW-Authenticate: Basic}, so a browser never offers to remember the
 * password for Wharf's origin (remembered Basic credentials would be sent with forged requests).
 */
public final class TokenHandlers {

	/** Longest validity a token may be given. */
	static final int MAX_DAYS = 3650;

	private static final String BASIC = "Basic ";

	private final Authenticator authenticator;

	private final ApiTokens tokens;

	private final CallerResolver callers;

	private final AuditTrail audit;

	/**
	 * Creates the handlers.
	 * @param authenticator checks passwords
	 * @param tokens the API tokens
	 * @param callers establishes callers for listing and revoking
	 * @param audit the audit trail
	 */
	public TokenHandlers(Authenticator authenticator, ApiTokens tokens, CallerResolver callers, AuditTrail audit) {
		this.authenticator = authenticator;
		this.tokens = tokens;
		this.callers = callers;
		this.audit = audit;
	}

	/** The handler of {@code /api/tokens}, for {@code GET}, {@code POST} and {@code DELETE}. */
	public WebHandler handler() {
		WebHandler list = this.callers.protect(this::list, false);
		WebHandler revoke = this.callers.protect(this::revoke, false);
		return exchange -> {
			HttpMethod method = exchange.getRequest().getMethod();
			if (method == HttpMethod.POST) {
				return mint(exchange);
			}
			return (method == HttpMethod.DELETE) ? revoke.handle(exchange) : list.handle(exchange);
		};
	}

	private Mono<Void> mint(ServerWebExchange exchange) {
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization == null || !authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
			return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED,
					"Minting a token needs the account's name and password (HTTP Basic)"));
		}
		String decoded;
		try {
			decoded = new String(Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()),
					StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return Mono.error(ApiException.badRequest("Malformed Basic credentials"));
		}
		int colon = decoded.indexOf(':');
		if (colon <= 0) {
			return Mono.error(ApiException.badRequest("Malformed Basic credentials"));
		}
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		String label = query.optional("name");
		Duration validity = validity(query.optional("days"));
		String name = decoded.substring(0, colon);
		return this.authenticator
			.login(AuditTrail.PROTOCOL, name, decoded.substring(colon + 1), Clients.address(exchange))
			.flatMap(result -> {
				if (!(result instanceof LoginResult.Success success)) {
					return Mono.error(LoginErrors.of(result));
				}
				User user = success.user();
				if (!user.hasRole(Role.USER)) {
					return Mono.error(new ApiException(HttpStatus.FORBIDDEN, "This account cannot use the file manager"));
				}
				return this.tokens.issue(user, (label != null) ? label : "token", validity).flatMap(issued -> {
					this.audit.record(exchange, user.name(), "token-create", "token:" + issued.token().id(), "success");
					JsonWriter json = new JsonWriter(320);
					json.beginObject().name("status").value("ok").name("result").beginObject()
						.name("token").value(issued.secret());
					fields(json, issued.token());
					json.endObject().endObject();
					return ApiResponses.json(exchange, HttpStatus.CREATED, json, "no-store");
				});
			});
	}

	private Mono<Void> list(ServerWebExchange exchange, Caller caller) {
		return this.tokens.list(caller.name()).collectList().flatMap(found -> {
			JsonWriter json = new JsonWriter(64 + found.size() * 128);
			json.beginObject().name("status").value("ok").name("results").beginArray();
			for (ApiToken token : found) {
				describe(json, token);
			}
			json.endArray().endObject();
			return ApiResponses.json(exchange, HttpStatus.OK, json, "no-store");
		});
	}

	private Mono<Void> revoke(ServerWebExchange exchange, Caller caller) {
		String id = new Query(exchange.getRequest().getURI().getRawQuery()).required("id");
		return this.tokens.revoke(caller.name(), id).flatMap(removed -> {
			this.audit.record(exchange, caller.name(), "token-revoke", "token:" + id, removed ? "success" : "not_found");
			return removed ? ApiResponses.ok(exchange) : Mono.error(ApiException.notFound());
		});
	}

	private static void describe(JsonWriter json, ApiToken token) {
		json.beginObject();
		fields(json, token);
		json.endObject();
	}

	private static void fields(JsonWriter json, ApiToken token) {
		json.name("id").value(token.id()).name("name").value(token.label()).name("created")
			.value(token.created().toEpochMilli()).name("expires");
		Instant expires = token.expires();
		if (expires != null) {
			json.value(expires.toEpochMilli());
		}
		else {
			json.nullValue();
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
