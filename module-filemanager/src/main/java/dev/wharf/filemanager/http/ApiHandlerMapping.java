package dev.wharf.filemanager.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Finds the {@link ApiRoute} for a request by exact path (a hash lookup; prefix routes are few and tried
 * after), before any other handler mapping. The API is a small fixed set of paths whose parameters are in
 * the query, so no pattern matching is needed on the hot path. Unknown paths below
 * {@value #API_FILES} get the API's JSON 404; everything else is left to the rest of the application (the
 * web UI at {@code /}, actuator, other modules).
 */
public final class ApiHandlerMapping implements HandlerMapping, Ordered {

	/** Runs before Spring's own mappings. */
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
	public ApiHandlerMapping(List<ApiRoute> routes) {
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
	public Mono<Object> getHandler(ServerWebExchange exchange) {
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		if (!path.startsWith("/api/")) {
			return Mono.empty();
		}
		ApiRoute route = this.exact.get(path);
		if (route == null) {
			for (ApiRoute candidate : this.prefixed) {
				if (path.startsWith(candidate.path())) {
					route = candidate;
					break;
				}
			}
		}
		if (route == null && path.startsWith(API_FILES)) {
			route = NOT_FOUND;
		}
		return (route != null) ? Mono.just(route) : Mono.empty();
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
