package dev.wharf.filemanager.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Sends each API request to its {@link ApiRoute}, found by exact path (a hash lookup;
 * prefix routes are few and tried after). The API is a small fixed set of paths whose
 * parameters are in the query, so no pattern matching is needed. Unknown paths below
 * {@value #API_FILES} get the API's JSON 404; everything else goes on down the filter
 * chain to the rest of the application (the web UI at {@code /}, actuator, other
 * modules).
 *
 * <p>
 * This is a filter rather than a {@code HandlerMapping} for speed: answering here skips
 * the {@code DispatcherHandler}'s walk over every handler mapping and adapter on every
 * request, work that a fixed set of exact paths does not need and that shows in the
 * server's CPU per {@code ls}. It runs after the filters that must see every request (the
 * HTTP/1.0 keep-alive fix); filters ordered after {@link #ORDER} do not see API requests.
 */
public final class ApiDispatcher implements WebFilter, Ordered {

	/** Right after the platform's own first filter. */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	/** The prefix of the file endpoints. */
	public static final String API_FILES = "/api/files/";

	private static final ApiRoute NOT_FOUND = new ApiRoute(API_FILES,
			ApiRoute.Method.of(ApiRoute.Method.GET, ApiRoute.Method.values()),
			exchange -> ApiResponses.error(exchange, HttpStatus.NOT_FOUND, "Not Found"));

	private final Map<String, ApiRoute> exact = new HashMap<>();

	private final List<ApiRoute> prefixed = new ArrayList<>();

	/**
	 * Creates the mapping.
	 * @param routes every route
	 */
	public ApiDispatcher(List<ApiRoute> routes) {
		for (ApiRoute route : routes) {
			if (route.isPrefix()) {
				this.prefixed.add(route);
			}
			else if (this.exact.putIfAbsent(route.path(), route) != null) {
				throw new IllegalArgumentException("Two routes for " + route.path());
			}
		}
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ApiRoute route = route(exchange.getRequest().getPath().pathWithinApplication().value());
		return (route != null) ? route.handle(exchange) : chain.filter(exchange);
	}

	/** Every route, exact ones first (what the API offers, for diagnostics and tests). */
	public List<ApiRoute> routes() {
		List<ApiRoute> all = new ArrayList<>(this.exact.values());
		all.addAll(this.prefixed);
		return List.copyOf(all);
	}

	/**
	 * The route for a path.
	 * @param path the path within the application
	 * @return the route, or {@code null} if the path is not the API's
	 */
	@Nullable ApiRoute route(String path) {
		if (!path.startsWith("/api/")) {
			return null;
		}
		ApiRoute route = this.exact.get(path);
		if (route == null) {
			for (ApiRoute candidate : this.prefixed) {
				if (path.startsWith(candidate.path())) {
					return candidate;
				}
			}
			if (path.startsWith(API_FILES)) {
				return NOT_FOUND;
			}
		}
		return route;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
