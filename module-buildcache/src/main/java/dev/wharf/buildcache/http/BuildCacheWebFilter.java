package dev.wharf.buildcache.http;

import dev.wharf.core.web.Http10KeepAliveFilter;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Serves the cache's base path: {@code {base}} and {@code {base}/} answer health checks, and
 * {@code {base}/{key…}} goes to the {@link CacheRequestHandler}; every other path passes on. A filter
 * rather than a route, so that the cache's hot path skips handler mapping and takes the raw, still encoded
 * path, which core's path rules decode exactly once.
 */
public final class BuildCacheWebFilter implements WebFilter, Ordered {

	/** Right after the HTTP/1.0 keep-alive fix, before anything else. */
	public static final int ORDER = Http10KeepAliveFilter.ORDER + 1;

	private final String basePath;

	private final CacheRequestHandler handler;

	/**
	 * Creates the filter.
	 * @param basePath the base path, without a trailing slash, such as {@code /cache}
	 * @param handler handles the cache's requests
	 */
	public BuildCacheWebFilter(String basePath, CacheRequestHandler handler) {
		this.basePath = basePath;
		this.handler = handler;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		int base = this.basePath.length();
		if (!path.startsWith(this.basePath)) {
			return chain.filter(exchange);
		}
		if (path.length() == base || (path.length() == base + 1 && path.charAt(base) == '/')) {
			return this.handler.health(exchange);
		}
		if (path.charAt(base) != '/') {
			return chain.filter(exchange);
		}
		return this.handler.handle(exchange, path.substring(base + 1));
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
