package dev.wharf.buildcache.http;

import dev.wharf.core.web.RequestTargets;
import dev.wharf.core.web.RouteOrder;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.core.Ordered;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * Puts the cache in front of the WebFlux application, on Reactor Netty's own routes:
 * {@code {base}} and {@code {base}/} answer health checks, {@code {base}/{key…}} goes to
 * the {@link CacheRequestHandler}, and every other request goes on to WebFlux. The cache
 * is a hot path of tiny requests, and WebFlux's adapter, exchange, observation, filter
 * chain and handler mapping cost more per request than the cache itself (measured:
 * docs/benchmarks/buildcache.md); the cache keeps its own metrics instead, and reads the
 * raw, still encoded path, which core's path rules decode exactly once. Its routes come
 * before static sites' ({@link RouteOrder#ENDPOINTS}), so a site at {@code /} never takes
 * the cache's requests.
 */
public final class CacheRoutes implements NettyRouteProvider, Ordered {

	private final String basePath;

	private final CacheRequestHandler handler;

	/**
	 * Creates the routes.
	 * @param basePath the base path, without a trailing slash, such as {@code /cache}
	 * @param handler handles the cache's requests
	 */
	public CacheRoutes(String basePath, CacheRequestHandler handler) {
		this.basePath = basePath;
		this.handler = handler;
	}

	@Override
	public int getOrder() {
		return RouteOrder.ENDPOINTS;
	}

	@Override
	public HttpServerRoutes apply(HttpServerRoutes routes) {
		return routes.route(this::isCache, (request, response) -> {
			String path = path(request);
			if (path.length() <= this.basePath.length() + 1) {
				return this.handler.health(request, response);
			}
			return this.handler.handle(request, response, path.substring(this.basePath.length() + 1));
		});
	}

	private boolean isCache(HttpServerRequest request) {
		String path = path(request);
		int base = this.basePath.length();
		return path.startsWith(this.basePath) && (path.length() == base || path.charAt(base) == '/');
	}

	/** The request target's path, raw, without the query. */
	private static String path(HttpServerRequest request) {
		return RequestTargets.path(request.uri());
	}

}
