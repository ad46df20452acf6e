package dev.wharf.filemanager.http;

import java.net.URI;
import java.net.URISyntaxException;

import dev.wharf.core.web.RequestTargets;
import dev.wharf.core.web.RouteOrder;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.core.Ordered;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * Answers the API's JSON 400 for a request below {@code /api/} whose target is no URI: a
 * malformed escape (a bare {@code %}, {@code %zz}) or a character a URI cannot hold raw
 * ({@code \}, <code>{</code>, a control character). WebFlux cannot build such a request's
 * URI and answers 400 with an empty body before any filter runs, so the API's client
 * would learn nothing; this Reactor Netty route comes first
 * ({@link RouteOrder#ENDPOINTS}) and says what is wrong. Nothing is repaired: a bare
 * {@code %} is not read as {@code %25}. Bytes that are not ASCII never get here, core's
 * {@link dev.wharf.core.web.NonAsciiTargetEncoder} encodes them first.
 *
 * <p>
 * Stateless and thread-safe; the check runs on the event loop for every request, and for
 * the API's ordinary targets it is one pass over the characters.
 */
public final class MalformedTargetRoute implements NettyRouteProvider, Ordered {

	/**
	 * What WebFlux puts in front of the target to make the request's URI; any host will
	 * do for the check.
	 */
	private static final String ORIGIN = "http://localhost";

	private final String prefix;

	/**
	 * Creates the route.
	 * @param basePath WebFlux's base path ({@code spring.webflux.base-path}), or empty
	 */
	public MalformedTargetRoute(String basePath) {
		String base = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
		this.prefix = ((base.isEmpty() || base.startsWith("/")) ? base : "/" + base) + "/api/";
	}

	@Override
	public int getOrder() {
		return RouteOrder.ENDPOINTS;
	}

	@Override
	public HttpServerRoutes apply(HttpServerRoutes routes) {
		return routes.route(this::isMalformedApiRequest, MalformedTargetRoute::refuse);
	}

	private boolean isMalformedApiRequest(HttpServerRequest request) {
		String target = request.uri();
		return RequestTargets.path(target).startsWith(this.prefix) && problem(target) != null;
	}

	private static Publisher<Void> refuse(HttpServerRequest request, HttpServerResponse response) {
		String problem = problem(request.uri());
		byte[] body = JsonBody
			.write(128,
					json -> json.writeStartObject()
						.writeStringProperty("status", "error")
						.writeStringProperty("message",
								"Invalid request target: " + ((problem != null) ? problem : "not a URI"))
						.writeEndObject())
			.toByteArray();
		return response.status(HttpResponseStatus.BAD_REQUEST)
			.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
			.header(HttpHeaderNames.CACHE_CONTROL, "no-cache")
			.header(ApiResponses.X_CONTENT_TYPE_OPTIONS, ApiResponses.NOSNIFF)
			.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length))
			.sendByteArray(Mono.just(body));
	}

	/**
	 * What makes a request target unusable as the request's URI, checked as WebFlux
	 * builds that URI.
	 * @param target the request target, as Reactor Netty has it
	 * @return why it is no URI, or {@code null} if it is one
	 */
	static @Nullable String problem(String target) {
		String uriPart = uriPart(target);
		if (isPlain(uriPart)) {
			return null;
		}
		try {
			new URI(ORIGIN + uriPart);
			return null;
		}
		catch (URISyntaxException ex) {
			int index = ex.getIndex() - ORIGIN.length();
			// The reason names the kind of problem only; the offending character is not
			// echoed (it may be a
			// control character).
			return ex.getReason() + ((index >= 0) ? " at index " + index : "")
					+ "; percent-encode '%' and the characters a URI cannot hold";
		}
	}

	/**
	 * The part of a target WebFlux appends to the scheme and host: all of it, or an
	 * absolute form's path on.
	 */
	private static String uriPart(String target) {
		if (target.startsWith("/")) {
			return target;
		}
		int scheme = target.indexOf("://");
		if (scheme < 0) {
			return target;
		}
		for (int i = scheme + 3; i < target.length(); i++) {
			char c = target.charAt(i);
			if (c == '/' || c == '?' || c == '#') {
				return target.substring(i);
			}
		}
		return "";
	}

	/**
	 * Whether a target holds only what every part of a URI takes raw (RFC 3986:
	 * unreserved, sub-delimiters, {@code :@/?}) and well-formed escapes; anything else is
	 * checked by the URI parser itself.
	 */
	private static boolean isPlain(String target) {
		for (int i = 0; i < target.length(); i++) {
			char c = target.charAt(i);
			if (c == '%') {
				if (i + 2 >= target.length() || !isHex(target.charAt(i + 1)) || !isHex(target.charAt(i + 2))) {
					return false;
				}
				i += 2;
			}
			else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0)) {
				return false;
			}
		}
		return true;
	}

	private static boolean isHex(char c) {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	}

}
