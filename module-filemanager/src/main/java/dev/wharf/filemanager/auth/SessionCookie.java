package dev.wharf.filemanager.auth;

import java.time.Duration;

import dev.wharf.filemanager.http.Clients;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;

/**
 * The {@value CallerResolver#COOKIE} cookie as every sign-in sets it and every logout
 * clears it: {@code HttpOnly}, {@code SameSite=Strict}, {@code Secure} under TLS, for the
 * API's path only.
 */
public final class SessionCookie {

	private SessionCookie() {
	}

	/**
	 * The cookie.
	 * @param exchange the exchange, for the base path and whether it came over TLS
	 * @param value the session's secret, or empty to clear it
	 * @param maxAge how long the browser keeps it; zero clears it
	 * @return the cookie
	 */
	public static ResponseCookie of(ServerWebExchange exchange, String value, Duration maxAge) {
		return ResponseCookie.from(CallerResolver.COOKIE, value)
			// Under a base path (or a proxy's X-Forwarded-Prefix) the API is below it,
			// and so is the cookie.
			.path(exchange.getRequest().getPath().contextPath().value() + "/api/")
			.httpOnly(true)
			.sameSite("Strict")
			.secure(Clients.isSecure(exchange))
			.maxAge(maxAge)
			.build();
	}

}
