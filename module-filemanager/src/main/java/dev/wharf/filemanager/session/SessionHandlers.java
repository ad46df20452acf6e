package dev.wharf.filemanager.session;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.SessionLimitException;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.auth.RecentSignIn;
import dev.wharf.filemanager.auth.SessionCookie;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Clients;
import dev.wharf.filemanager.http.JsonBody;
import dev.wharf.filemanager.http.SmallBody;
import dev.wharf.filemanager.http.Query;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/session}, a browser's login and logout:
 * <ul>
 * <li>{@code POST} with {@code {"username":…,"password":…}} (or the same as a form) logs
 * in through the shared authenticator (throttled per account and per address: 429 with
 * {@code Retry-After}; audited) and sets the {@code auth} cookie: a fresh random session
 * id ({@code HttpOnly}, {@code SameSite=Strict}, {@code Path=/api/}, {@code Secure} under
 * TLS). A session the request already carried is ended, so a planted cookie never becomes
 * a logged-in one. The id is never in the JSON body.</li>
 * <li>{@code GET} tells who is logged in and which mounts they see (401 if nobody), and
 * for a session that may mint API tokens without a password (see {@link RecentSignIn})
 * until when it may.</li>
 * <li>{@code DELETE} ends this session on the server and clears the cookie; with
 * {@code ?all=true} it ends every session of the user (log out everywhere).</li>
 * </ul>
 * A request that carries the cookie must carry {@code X-Requested-With} too, logins
 * included, and so must a login that carries {@code Origin} (every browser's POST does;
 * 403 otherwise): a hostile page could otherwise log a visitor into the attacker's
 * account (login CSRF). Clients that are no browser send no {@code Origin}. A right login
 * whose session may not start (too many started lately by the account or the address:
 * 429; the session store full: 503, both with {@code Retry-After}) sets no cookie.
 */
public final class SessionHandlers {

	/** Largest login body read. */
	static final int MAX_BODY = 8 * 1024;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Authenticator authenticator;

	private final Sessions sessions;

	private final CallerResolver callers;

	private final MountTree tree;

	private final AuditTrail audit;

	private final RecentSignIn recentSignIn;

	/**
	 * Creates the handlers.
	 * @param authenticator checks passwords
	 * @param sessions the sessions
	 * @param callers establishes callers
	 * @param tree the mounts, to tell whether sessions must keep the login for
	 * passthrough mounts
	 * @param audit the audit trail
	 * @param recentSignIn until when a session may mint API tokens, which {@code GET}
	 * tells
	 */
	public SessionHandlers(Authenticator authenticator, Sessions sessions, CallerResolver callers, MountTree tree,
			AuditTrail audit, RecentSignIn recentSignIn) {
		this.authenticator = authenticator;
		this.sessions = sessions;
		this.callers = callers;
		this.tree = tree;
		this.audit = audit;
		this.recentSignIn = recentSignIn;
	}

	/**
	 * The handler of {@code /api/session}, for {@code GET}, {@code POST} and
	 * {@code DELETE}.
	 */
	public WebHandler handler() {
		WebHandler info = this.callers.protect(this::info, false);
		return exchange -> {
			HttpMethod method = exchange.getRequest().getMethod();
			if (method == HttpMethod.POST) {
				return login(exchange);
			}
			if (method == HttpMethod.DELETE) {
				return logout(exchange);
			}
			return info.handle(exchange);
		};
	}

	private Mono<Void> login(ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		String previous = CallerResolver.sessionCookie(request);
		if (previous != null && !CallerResolver.hasRequestedWith(request.getHeaders())) {
			return Mono.error(CallerResolver.requestedWithMissing(request.getHeaders(), CallerResolver.COOKIE_RULE));
		}
		if (request.getHeaders().getOrigin() != null && !CallerResolver.hasRequestedWith(request.getHeaders())) {
			// Login CSRF: a form on another site would log the victim's browser into the
			// attacker's account.
			// Browsers send Origin with every POST, and a page on another site cannot add
			// the header; scripts
			// send no Origin. (Comparing the Origin with the server's own address would
			// break behind proxies.)
			return Mono
				.error(CallerResolver.requestedWithMissing(request.getHeaders(), "required for logins from a browser"));
		}
		String client = Clients.address(exchange);
		return SmallBody.read(request, MAX_BODY)
			.map(body -> LoginForm.parse(request, body))
			.flatMap(form -> this.authenticator.login(AuditTrail.PROTOCOL, form.username(), form.password(), client)
				.flatMap(result -> {
					if (result instanceof LoginResult.Success success) {
						return start(exchange, success.user(), form, previous, client);
					}
					return Mono.error(LoginErrors.of(result));
				}));
	}

	private Mono<Void> start(ServerWebExchange exchange, User user, LoginForm form, @Nullable String previous,
			@Nullable String client) {
		if (!user.hasRole(Role.USER)) {
			this.audit.record(exchange, user.name(), "login", null, "denied");
			return Mono.error(new ApiException(HttpStatus.FORBIDDEN, "This account cannot use the file manager"));
		}
		Credentials credentials = this.tree.needsCredentials() ? new Credentials(form.username(), form.password())
				: null;
		Mono<?> endPrevious = (previous != null) ? this.sessions.revoke(previous) : Mono.empty();
		return endPrevious.then(this.sessions.create(user, client, credentials))
			.onErrorMap(SessionLimitException.class, refused -> {
				this.audit.record(exchange, user.name(), "session-start", null, "refused");
				return LoginErrors.of(refused);
			})
			.flatMap(created -> {
				// The authenticator audits password checks; a login it answered from its
				// cache would go unrecorded.
				this.audit.record(exchange, user.name(), "session-start", null, "success");
				exchange.getResponse().addCookie(SessionCookie.of(exchange, created.secret(), this.sessions.maxAge()));
				return ApiResponses.json(exchange, HttpStatus.OK, describe(user, "session", null), "no-store");
			});
	}

	private Mono<Void> info(ServerWebExchange exchange, Caller caller) {
		return ApiResponses.json(exchange, HttpStatus.OK, describe(caller.user(),
				(caller.session() != null) ? "session" : "token", this.recentSignIn.mintUntil(caller)), "no-store");
	}

	private Mono<Void> logout(ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		if (new Query(request.getURI().getRawQuery()).flag("all")) {
			return this.callers.resolve(exchange, false)
				.flatMap(caller -> this.sessions.revokeAll(caller.name()).doOnNext(ended -> {
					this.authenticator.forget(caller.name());
					this.audit.record(exchange, caller.name(), "logout-everywhere", null, "success");
				}).then(Mono.defer(() -> cleared(exchange))));
		}
		String secret = CallerResolver.sessionCookie(request);
		if (secret == null) {
			return Mono.error(ApiException.notAuthorised());
		}
		if (!CallerResolver.hasRequestedWith(request.getHeaders())) {
			return Mono.error(CallerResolver.requestedWithMissing(request.getHeaders(), CallerResolver.COOKIE_RULE));
		}
		return this.sessions.revoke(secret)
			.doOnNext(session -> this.audit.record(exchange, session.user(), "logout", null, "success"))
			.then(Mono.defer(() -> cleared(exchange)));
	}

	private static Mono<Void> cleared(ServerWebExchange exchange) {
		exchange.getResponse().addCookie(SessionCookie.of(exchange, "", Duration.ZERO));
		return ApiResponses.ok(exchange);
	}

	private JsonBody describe(User user, String method, @Nullable Instant mintUntil) {
		return JsonBody.write(256, json -> {
			json.writeStartObject()
				.writeStringProperty("status", "ok")
				.writeObjectPropertyStart("result")
				.writeBooleanProperty("is_authenticated", true)
				.writeStringProperty("username", user.name())
				.writeStringProperty("home", "/")
				.writeStringProperty("authentication", method);
			if (mintUntil != null) {
				// A session of a provider's user may mint API tokens until then (the UI
				// offers it).
				json.writeNumberProperty("mint_token_until", mintUntil.toEpochMilli());
			}
			json.writeArrayPropertyStart("mounts");
			for (Mount mount : this.tree.visible(user)) {
				json.writeStartObject()
					.writeStringProperty("name", mount.name())
					.writeStringProperty("access", (user.access(mount.name()) == MountAccess.READ_WRITE) ? "rw" : "ro")
					.writeEndObject();
			}
			json.writeEndArray().writeEndObject().writeEndObject();
		});
	}

	/** The login's name and password, from JSON or a form. */
	private record LoginForm(String username, String password) {

		static LoginForm parse(ServerHttpRequest request, String body) {
			MediaType type = request.getHeaders().getContentType();
			String username;
			String password;
			if (type != null && MediaType.APPLICATION_FORM_URLENCODED.isCompatibleWith(type)) {
				Query form = new Query(body);
				username = form.optional("username");
				password = form.optional("password");
			}
			else {
				try {
					JsonNode json = JSON.readTree(body);
					username = text(json, "username");
					password = text(json, "password");
				}
				catch (JacksonException ex) {
					throw ApiException.badRequest("The login body must be JSON: {\"username\":…,\"password\":…}");
				}
			}
			if (username == null || username.isEmpty() || password == null) {
				throw ApiException.badRequest("Give a username and a password");
			}
			return new LoginForm(username, password);
		}

		private static @Nullable String text(@Nullable JsonNode json, String name) {
			if (json == null || !json.isObject()) {
				return null;
			}
			JsonNode value = json.get(name);
			return (value != null && value.isString()) ? value.stringValue() : null;
		}

		@Override
		public String toString() {
			return "LoginForm[username=" + this.username + ", password=(hidden)]";
		}

	}

}
