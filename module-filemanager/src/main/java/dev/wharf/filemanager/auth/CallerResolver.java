package dev.wharf.filemanager.auth;

import java.util.List;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.core.session.Sessions;
import dev.wharf.filemanager.http.ApiException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * Establishes who is calling, the same way for every protected endpoint:
 * <ol>
 * <li>{@code Authorization: Bearer <api token>}: an API client; cookies are then
 * ignored.</li>
 * <li>Otherwise the {@value #COOKIE} cookie: a browser session. Such a request must also
 * carry {@code X-Requested-With: XmlHttpRequest} (403 otherwise): a page on another site
 * cannot add that header without a CORS preflight, which Wharf never grants, so a forged
 * request fails even if a browser sent the cookie. Only {@code GET}/{@code HEAD} of
 * downloads and zips are exempt, because an {@code <img>} or a download link cannot add
 * headers; they change nothing.</li>
 * <li>Otherwise 401.</li>
 * </ol>
 * The user's rights are then looked up again in the user directory, so a removed user or
 * changed rights apply at once; a user without the {@code user} role (such as a
 * build-cache account) is refused.
 */
public final class CallerResolver {

	/** The session cookie's name, as Filestash names it. */
	public static final String COOKIE = "auth";

	/** The anti-CSRF header browsers calls must carry. */
	public static final String REQUESTED_WITH = "X-Requested-With";

	/**
	 * When {@value #REQUESTED_WITH} is needed, for the message of a request without it.
	 */
	public static final String COOKIE_RULE = "required with cookie sessions";

	private static final String BEARER = "Bearer ";

	private final Sessions sessions;

	private final ApiTokens tokens;

	private final UserDirectory users;

	/**
	 * Creates the resolver.
	 * @param sessions the sessions
	 * @param tokens the API tokens
	 * @param users the user directory
	 */
	public CallerResolver(Sessions sessions, ApiTokens tokens, UserDirectory users) {
		this.sessions = sessions;
		this.tokens = tokens;
		this.users = users;
	}

	/**
	 * Protects a handler: it runs only for an established caller.
	 * @param handler the handler
	 * @param cookieReads whether {@code GET} and {@code HEAD} may use the cookie without
	 * the {@code X-Requested-With} header (downloads)
	 * @return the protected handler
	 */
	public WebHandler protect(AuthenticatedHandler handler, boolean cookieReads) {
		return exchange -> resolve(exchange, cookieReads).flatMap(caller -> handler.handle(exchange, caller));
	}

	/**
	 * Establishes the caller.
	 * @param exchange the exchange
	 * @param cookieReads whether {@code GET} and {@code HEAD} may use the cookie without
	 * the header
	 * @return the caller; fails with {@link ApiException} 401 or 403
	 */
	public Mono<Caller> resolve(ServerWebExchange exchange, boolean cookieReads) {
		ServerHttpRequest request = exchange.getRequest();
		HttpHeaders headers = request.getHeaders();
		String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization != null) {
			if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
				return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED,
						"Use a session or an API token (Authorization: Bearer)"));
			}
			String secret = authorization.substring(BEARER.length()).trim();
			return this.tokens.authenticate(secret)
				.switchIfEmpty(Mono.error(ApiException::notAuthorised))
				.map(token -> new Caller(user(token.user()), null, token));
		}
		String cookie = sessionCookie(request);
		if (cookie == null) {
			return Mono.error(ApiException.notAuthorised());
		}
		if (!hasRequestedWith(headers) && !(cookieReads && isRead(request.getMethod()))) {
			return Mono.error(requestedWithMissing(headers, COOKIE_RULE));
		}
		return this.sessions.find(cookie)
			.switchIfEmpty(Mono.error(ApiException::notAuthorised))
			.map(session -> new Caller(user(session.user()), session, null));
	}

	/**
	 * Whether the request carries the anti-CSRF header (any case of
	 * {@code XmlHttpRequest}, which covers both Filestash's spelling and
	 * {@code XMLHttpRequest}).
	 * @param headers the request headers
	 * @return whether it is there
	 */
	public static boolean hasRequestedWith(HttpHeaders headers) {
		String value = headers.getFirst(REQUESTED_WITH);
		return value != null && value.equalsIgnoreCase("XmlHttpRequest");
	}

	/**
	 * The 403 for a request that lacks the anti-CSRF header, saying which header it
	 * needs: a client that is no browser but keeps the cookie must be told what to add.
	 * @param headers the request headers
	 * @param rule when the header is needed, such as {@value #COOKIE_RULE}
	 * @return the error
	 */
	public static ApiException requestedWithMissing(HttpHeaders headers, String rule) {
		String problem = (headers.getFirst(REQUESTED_WITH) == null) ? "Missing header " : "Wrong value of header ";
		return new ApiException(HttpStatus.FORBIDDEN,
				problem + REQUESTED_WITH + ": XmlHttpRequest (" + rule + ", against CSRF)");
	}

	/**
	 * The session cookie's value, parsed from the {@code Cookie} headers without building
	 * a map of every cookie.
	 * @param request the request
	 * @return the value, or {@code null} if there is none
	 */
	public static @Nullable String sessionCookie(ServerHttpRequest request) {
		List<String> values = request.getHeaders().get(HttpHeaders.COOKIE);
		if (values == null) {
			return null;
		}
		for (String header : values) {
			int start = 0;
			while (start < header.length()) {
				int end = header.indexOf(';', start);
				if (end < 0) {
					end = header.length();
				}
				int nameStart = start;
				while (nameStart < end && header.charAt(nameStart) == ' ') {
					nameStart++;
				}
				if (header.startsWith(COOKIE, nameStart) && nameStart + COOKIE.length() < end
						&& header.charAt(nameStart + COOKIE.length()) == '=') {
					String value = header.substring(nameStart + COOKIE.length() + 1, end).trim();
					return value.isEmpty() ? null : value;
				}
				start = end + 1;
			}
		}
		return null;
	}

	private User user(String name) {
		User user = this.users.find(name).orElseThrow(ApiException::notAuthorised);
		if (!user.hasRole(Role.USER)) {
			throw new ApiException(HttpStatus.FORBIDDEN, "This account cannot use the file manager");
		}
		return user;
	}

	private static boolean isRead(HttpMethod method) {
		return method == HttpMethod.GET || method == HttpMethod.HEAD;
	}

}
