package dev.wharf.core.web;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers {@code Connection: keep-alive} to clients that ask for it. Reactor Netty keeps
 * an HTTP/1.0 keep-alive connection open but does not say so, and an HTTP/1.0 client
 * ({@code ab -k}, the tool behind every benchmark table Wharf reproduces) then waits for
 * a close that never comes.
 */
public final class Http10KeepAliveFilter implements WebFilter, Ordered {

	/** Runs first, before anything can commit the response. */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE;

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String connection = exchange.getRequest().getHeaders().getFirst(HttpHeaders.CONNECTION);
		if (connection != null && connection.equalsIgnoreCase("keep-alive")) {
			exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "keep-alive");
		}
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
