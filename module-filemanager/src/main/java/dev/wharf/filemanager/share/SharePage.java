package dev.wharf.filemanager.share;

import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.ui.UiAssets;
import dev.wharf.filemanager.ui.UiFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /s/<id>}, the page a share link leads to: the visitors' UI
 * ({@code share.html}), answered with the link's status, so that a browser and a script
 * both see it: 200 for a link that works (its password, if any, is asked for by the
 * page), 404 for an unknown or revoked one, 410 for an expired or used-up one, 503 while
 * the state store cannot be reached. The page then shows the message the API gives. Other
 * paths go on down the chain. Thread-safe; never blocks.
 */
public final class SharePage implements WebFilter, Ordered {

	/** The path prefix of share links. */
	public static final String PREFIX = "/s/";

	private final ShareVisitors visitors;

	private final UiAssets assets;

	/**
	 * Creates the filter.
	 * @param visitors checks links
	 * @param assets the UI's files
	 */
	public SharePage(ShareVisitors visitors, UiAssets assets) {
		this.visitors = visitors;
		this.assets = assets;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		HttpMethod method = exchange.getRequest().getMethod();
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		if ((method != HttpMethod.GET && method != HttpMethod.HEAD) || !path.startsWith(PREFIX)
				|| path.indexOf('/', PREFIX.length()) >= 0) {
			return chain.filter(exchange);
		}
		byte[] page = this.assets.sharePage();
		return this.visitors.live(path.substring(PREFIX.length()))
			.then(UiFilter.page(exchange, HttpStatus.OK, page))
			.onErrorResume(ApiException.class, refused -> UiFilter.page(exchange, status(refused.status()), page))
			.onErrorResume(SharedStateUnavailableException.class,
					down -> UiFilter.page(exchange, HttpStatus.SERVICE_UNAVAILABLE, page));
	}

	private static HttpStatus status(HttpStatusCode code) {
		HttpStatus status = HttpStatus.resolve(code.value());
		return (status != null) ? status : HttpStatus.NOT_FOUND;
	}

	@Override
	public int getOrder() {
		return UiFilter.ORDER + 1;
	}

}
