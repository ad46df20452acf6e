package dev.wharf.filemanager.ui;

import java.time.Duration;
import java.util.Objects;

import dev.wharf.core.web.MediaTypeRegistry;
import dev.wharf.filemanager.http.ApiDispatcher;
import dev.wharf.filemanager.http.ApiResponses;
import org.springframework.core.Ordered;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Serves the UI: {@code GET|HEAD /} is the page ({@code no-cache}, so a new version is
 * picked up at once), {@code /assets/<fingerprint>/<name>} the files it loads (cached for
 * a year, {@code immutable}); an asset with another fingerprint is 404, never today's
 * file under yesterday's name. Every answer carries a strict Content-Security-Policy:
 * scripts and styles only from this origin, nothing inline, no framing.
 *
 * <p>
 * All addresses in the page are relative and its routes live in the URL's fragment, so
 * the UI works at the root, under {@code spring.webflux.base-path}, and behind a reverse
 * proxy that maps a sub-path to Wharf's root. The application root without its trailing
 * slash is redirected to it (relative addresses need it). Other paths go on down the
 * filter chain.
 */
public final class UiFilter implements WebFilter, Ordered {

	/** Right after the API's dispatcher. */
	public static final int ORDER = ApiDispatcher.ORDER + 1;

	/**
	 * The page's policy. {@code blob:} images are the previews of files being uploaded;
	 * {@code frame-src} and {@code media-src} are PDF, audio and video previews, loaded
	 * from the API.
	 */
	static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' blob: data:; media-src 'self'; frame-src 'self'; connect-src 'self'; "
			+ "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

	private static final String ASSETS = "/assets/";

	/**
	 * The page's and the assets' types are the ones every module sends such files with.
	 */
	private static final MediaTypeRegistry TYPES = MediaTypeRegistry.defaults();

	private static final String IMMUTABLE = headerValue(
			CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable());

	private static final String NO_CACHE = headerValue(CacheControl.noCache());

	private final UiAssets assets;

	/**
	 * Creates the filter.
	 * @param assets the UI's files
	 */
	public UiFilter(UiAssets assets) {
		this.assets = assets;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		HttpMethod method = request.getMethod();
		if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
			return chain.filter(exchange);
		}
		String path = request.getPath().pathWithinApplication().value();
		if (path.isEmpty()) {
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(HttpStatus.MOVED_PERMANENTLY);
			response.getHeaders().set(HttpHeaders.LOCATION, request.getPath().contextPath().value() + "/");
			return response.setComplete();
		}
		if (path.equals("/") || path.equals("/" + UiAssets.PAGE)) {
			return send(exchange, this.assets.page(), TYPES.forName(UiAssets.PAGE), NO_CACHE);
		}
		if (path.startsWith(ASSETS)) {
			String rest = path.substring(ASSETS.length());
			int slash = rest.indexOf('/');
			byte[] content = (slash > 0 && rest.substring(0, slash).equals(this.assets.fingerprint()))
					? this.assets.asset(rest.substring(slash + 1)) : null;
			if (content == null) {
				exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
				exchange.getResponse().getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-store");
				return exchange.getResponse().setComplete();
			}
			return send(exchange, content, TYPES.forName(rest), IMMUTABLE);
		}
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	/**
	 * Answers with a page of the UI, with the headers every page gets (no caching, the
	 * strict policy).
	 * @param exchange the exchange
	 * @param status the status
	 * @param content the page
	 * @return completes when written
	 */
	public static Mono<Void> page(ServerWebExchange exchange, HttpStatus status, byte[] content) {
		exchange.getResponse().setStatusCode(status);
		return send(exchange, content, TYPES.forName(UiAssets.PAGE), NO_CACHE);
	}

	private static Mono<Void> send(ServerWebExchange exchange, byte[] content, String type, String cacheControl) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		headers.set(HttpHeaders.CONTENT_TYPE, type);
		headers.setContentLength(content.length);
		headers.set(HttpHeaders.CACHE_CONTROL, cacheControl);
		headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
		headers.set(ApiResponses.X_CONTENT_TYPE_OPTIONS, ApiResponses.NOSNIFF);
		headers.set("Referrer-Policy", "no-referrer");
		headers.set("X-Frame-Options", "DENY");
		if (exchange.getRequest().getMethod() == HttpMethod.HEAD) {
			return response.setComplete();
		}
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(content)));
	}

	private static String headerValue(CacheControl cacheControl) {
		// Only a CacheControl without any directive has no header value.
		return Objects.requireNonNull(cacheControl.getHeaderValue(), "A Cache-Control without directives");
	}

}
