package dev.wharf.filemanager.http;

import java.net.InetSocketAddress;

import org.jspecify.annotations.Nullable;
import org.springframework.web.server.ServerWebExchange;

/**
 * The client's address, for login throttling and the audit log: the connection's peer, or
 * what Spring's forwarded-headers support made of
 * {@code Forwarded}/{@code X-Forwarded-For} when {@code server.forward-headers-strategy}
 * is set (only behind a trusted proxy).
 */
public final class Clients {

	private Clients() {
	}

	/**
	 * The client's address.
	 * @param exchange the exchange
	 * @return the address as text, or {@code null} if unknown
	 */
	public static @Nullable String address(ServerWebExchange exchange) {
		InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
		if (remote == null) {
			return null;
		}
		return (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
	}

	/**
	 * Whether the request came over TLS (directly, or as the forwarded headers say), so
	 * cookies get {@code Secure}.
	 * @param exchange the exchange
	 * @return whether the scheme is https
	 */
	public static boolean isSecure(ServerWebExchange exchange) {
		return exchange.getRequest().getSslInfo() != null || "https".equals(exchange.getRequest().getURI().getScheme());
	}

}
