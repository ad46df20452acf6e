package dev.wharf.filemanager.http;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * One API path: the methods it accepts (others get 405 with {@code Allow}), the handler,
 * and the error handling every API call shares: whatever the handler throws or signals
 * becomes the JSON error envelope through {@link ApiResponses#error}. It also names its
 * path pattern for the request metrics ({@code http.server.requests}, tag {@code uri}).
 */
public final class ApiRoute implements WebHandler {

	private final String path;

	private final PathPattern pattern;

	private final Set<HttpMethod> methods;

	private final String allow;

	private final WebHandler handler;

	/**
	 * Creates a route.
	 * @param path the exact path, or a prefix ending with {@code /} for paths below it
	 * @param methods the accepted methods
	 * @param handler what answers
	 */
	public ApiRoute(String path, Set<Method> methods, WebHandler handler) {
		this.path = path;
		this.pattern = PathPatternParser.defaultInstance.parse(path.endsWith("/") ? path + "**" : path);
		this.methods = methods.stream().map(Method::httpMethod).collect(Collectors.toUnmodifiableSet());
		this.allow = methods.stream().map(Enum::name).sorted().collect(Collectors.joining(", "));
		this.handler = handler;
	}

	/** The path, or the prefix. */
	public String path() {
		return this.path;
	}

	/** The methods it accepts. */
	public Set<HttpMethod> methods() {
		return this.methods;
	}

	/** Whether this route answers every path below {@link #path()}. */
	public boolean isPrefix() {
		return this.path.endsWith("/");
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange) {
		exchange.getAttributes().put(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, this.pattern);
		if (!this.methods.contains(exchange.getRequest().getMethod())) {
			exchange.getResponse().getHeaders().set(HttpHeaders.ALLOW, this.allow);
			return ApiResponses.error(exchange, HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed");
		}
		return Mono.defer(() -> this.handler.handle(exchange))
			.onErrorResume(error -> ApiResponses.error(exchange, error));
	}

	@Override
	public String toString() {
		return "ApiRoute[" + this.allow + " " + this.path + "]";
	}

	/** The methods a route can accept. */
	public enum Method {

		/** GET. */
		GET(HttpMethod.GET),

		/** HEAD. */
		HEAD(HttpMethod.HEAD),

		/** POST. */
		POST(HttpMethod.POST),

		/** PATCH. */
		PATCH(HttpMethod.PATCH),

		/** DELETE. */
		DELETE(HttpMethod.DELETE),

		/** OPTIONS. */
		OPTIONS(HttpMethod.OPTIONS);

		private final HttpMethod httpMethod;

		Method(HttpMethod httpMethod) {
			this.httpMethod = httpMethod;
		}

		HttpMethod httpMethod() {
			return this.httpMethod;
		}

		/**
		 * A set of methods.
		 * @param first one method
		 * @param rest more methods
		 * @return the set
		 */
		public static Set<Method> of(Method first, Method... rest) {
			return EnumSet.of(first, rest);
		}

	}

}
