package dev.wharf.filemanager.http;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.wharf.filemanager.http.ApiErrors.Answer;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Writes the API's JSON envelope, {@code {"status":"ok","result(s)":…}} or
 * {@code {"status":"error","message":…}}, with the headers every API response carries:
 * {@code Content-Type: application/json}, {@code Cache-Control: no-cache} (or
 * {@code no-store} where a secret or a user's data must not be kept) and
 * {@code X-Content-Type-Options: nosniff}.
 */
public final class ApiResponses {

	/** The header that stops browsers from guessing content types. */
	public static final String X_CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";

	/** Its value, sent on every API response, as Filestash does. */
	public static final String NOSNIFF = "nosniff";

	private static final byte[] OK = "{\"status\":\"ok\"}".getBytes(StandardCharsets.US_ASCII);

	/** Headers an error answer must not inherit from a handler that failed half-way. */
	private static final List<String> CONTENT_HEADERS = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.CONTENT_LENGTH,
			HttpHeaders.CONTENT_DISPOSITION, HttpHeaders.CONTENT_RANGE, HttpHeaders.ACCEPT_RANGES, HttpHeaders.ETAG,
			HttpHeaders.LAST_MODIFIED, HttpHeaders.CACHE_CONTROL, "Content-Security-Policy");

	private ApiResponses() {
	}

	/**
	 * Answers {@code {"status":"ok"}}.
	 * @param exchange the exchange
	 * @return completes when written
	 */
	public static Mono<Void> ok(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		jsonHeaders(response, "no-cache");
		return response.writeWith(Mono.just(response.bufferFactory().wrap(OK)));
	}

	/**
	 * Answers with a JSON body.
	 * @param exchange the exchange
	 * @param status the status
	 * @param json the body
	 * @param cacheControl {@code no-cache}, or {@code no-store} for secrets
	 * @return completes when written
	 */
	public static Mono<Void> json(ServerWebExchange exchange, HttpStatusCode status, JsonBody json,
			String cacheControl) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(status);
		jsonHeaders(response, cacheControl);
		return write(response, json);
	}

	/**
	 * Answers 200 with a JSON body and its entity tag, or {@code 304 Not Modified} if the
	 * client's {@code If-None-Match} already names it.
	 * @param exchange the exchange
	 * @param json the body
	 * @return completes when written
	 */
	public static Mono<Void> jsonWithEtag(ServerWebExchange exchange, JsonBody json) {
		ServerHttpResponse response = exchange.getResponse();
		String etag = json.etag();
		HttpHeaders headers = response.getHeaders();
		headers.set(HttpHeaders.ETAG, etag);
		headers.set(HttpHeaders.CACHE_CONTROL, "no-cache");
		headers.set(X_CONTENT_TYPE_OPTIONS, NOSNIFF);
		if (Conditions.noneMatch(exchange.getRequest().getHeaders(), etag)) {
			response.setStatusCode(HttpStatus.NOT_MODIFIED);
			return response.setComplete();
		}
		headers.setContentType(MediaType.APPLICATION_JSON);
		return write(response, json);
	}

	/**
	 * Answers an error with the status and message {@link ApiErrors} gives it. If the
	 * response has already started, nothing more can be said: the error goes on, and the
	 * connection is closed so the client sees a broken transfer rather than a short
	 * success.
	 * @param exchange the exchange
	 * @param error what went wrong
	 * @return completes when written
	 */
	public static Mono<Void> error(ServerWebExchange exchange, Throwable error) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.error(error);
		}
		Answer answer = ApiErrors.answer(error);
		HttpHeaders headers = response.getHeaders();
		CONTENT_HEADERS.forEach(headers::remove);
		if (answer.retryAfter() != null) {
			headers.set(HttpHeaders.RETRY_AFTER,
					Long.toString(Math.max(1, (answer.retryAfter().toMillis() + 999) / 1000)));
		}
		return error(exchange, answer.status(), answer.message());
	}

	/**
	 * Answers an error.
	 * @param exchange the exchange
	 * @param status the status
	 * @param message what the client is told
	 * @return completes when written
	 */
	public static Mono<Void> error(ServerWebExchange exchange, HttpStatusCode status, String message) {
		JsonBody json = JsonBody.write(64 + message.length(),
				out -> out.writeStartObject()
					.writeStringProperty("status", "error")
					.writeStringProperty("message", message)
					.writeEndObject());
		return json(exchange, status, json, "no-cache");
	}

	/**
	 * Sets the headers of a JSON answer.
	 * @param response the response
	 * @param cacheControl the {@code Cache-Control} value
	 */
	public static void jsonHeaders(ServerHttpResponse response, String cacheControl) {
		HttpHeaders headers = response.getHeaders();
		headers.setContentType(MediaType.APPLICATION_JSON);
		headers.set(HttpHeaders.CACHE_CONTROL, cacheControl);
		headers.set(X_CONTENT_TYPE_OPTIONS, NOSNIFF);
	}

	private static Mono<Void> write(ServerHttpResponse response, JsonBody json) {
		DataBuffer body = json.toBuffer(response.bufferFactory());
		response.getHeaders().setContentLength(json.length());
		return response.writeWith(Mono.just(body));
	}

}
