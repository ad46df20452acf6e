package dev.wharf.filemanager.auth;

import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Answers an API request whose caller has been established. Runs on the event loop: it
 * must not block.
 */
@FunctionalInterface
public interface AuthenticatedHandler {

	/**
	 * Answers a request.
	 * @param exchange the exchange
	 * @param caller who is calling
	 * @return completes when the answer is written
	 */
	Mono<Void> handle(ServerWebExchange exchange, Caller caller);

}
