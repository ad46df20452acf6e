package dev.wharf.buildcache.http;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import dev.wharf.buildcache.access.AnonymousAccess;
import dev.wharf.buildcache.access.CacheAuthenticator;
import dev.wharf.buildcache.access.CacheAuthenticator.Outcome;
import dev.wharf.buildcache.access.CacheCaller;
import dev.wharf.buildcache.access.RequestQuotas;
import dev.wharf.buildcache.store.CacheEntry;
import dev.wharf.buildcache.store.CacheKey;
import dev.wharf.buildcache.store.CacheMetrics;
import dev.wharf.buildcache.store.CacheStore;
import dev.wharf.buildcache.store.EntryTooLargeException;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.AuditLog.AuditEvent;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The cache protocol that Gradle's {@code HttpBuildCache} and the Maven build-cache extension speak:
 * {@code GET}/{@code HEAD} answer 200 with the entry or 404, {@code PUT} stores and answers 201.
 *
 * <p>Every check comes before the request body is read: the key (400), the credentials (401 with a
 * {@code WWW-Authenticate} challenge, which Maven waits for before it sends credentials on GET), the role
 * (403, or 401 for an anonymous caller who could log in), the quota (429 with {@code Retry-After}) and an
 * announced length over the limit (413). Reactor Netty answers {@code Expect: 100-continue} only when the
 * body is first read, so a client that waits for it never sends a body that is refused. A body of
 * unannounced length is cut off at the limit (413, nothing stored). Storage failures map to 503 (backend
 * down), 507 (out of space) or 500; an error after the response started aborts the connection, so a
 * client never takes a truncated entry for a whole one.
 *
 * <p>Thread-safe; never blocks.
 */
public final class CacheRequestHandler {

	private static final Log logger = LogFactory.getLog(CacheRequestHandler.class);

	private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(3);

	private static final HttpStatusCode INSUFFICIENT_STORAGE = HttpStatusCode.valueOf(507);

	private static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

	private final String mount;

	private final CacheStore store;

	private final CacheAuthenticator authenticator;

	private final AnonymousAccess anonymous;

	private final RequestQuotas quotas;

	private final long maxEntrySize;

	private final String challenge;

	private final CacheMetrics metrics;

	private final AuditLog audit;

	/**
	 * Creates the handler.
	 * @param mount the mount's name, for audit lines
	 * @param store the entries
	 * @param authenticator finds out who asks
	 * @param anonymous what anonymous callers may do
	 * @param quotas request limits
	 * @param maxEntrySize the largest entry, in bytes
	 * @param realm the realm of the Basic challenge
	 * @param metrics where refusals are counted
	 * @param audit where refused writes are recorded
	 */
	public CacheRequestHandler(String mount, CacheStore store, CacheAuthenticator authenticator,
			AnonymousAccess anonymous, RequestQuotas quotas, long maxEntrySize, String realm, CacheMetrics metrics,
			AuditLog audit) {
		this.mount = mount;
		this.store = store;
		this.authenticator = authenticator;
		this.anonymous = anonymous;
		this.quotas = quotas;
		this.maxEntrySize = maxEntrySize;
		this.challenge = "Basic realm=\"" + realm + "\", charset=\"UTF-8\"";
		this.metrics = metrics;
		this.audit = audit;
	}

	/**
	 * Handles a request for an entry.
	 * @param exchange the exchange
	 * @param rawKey the raw (percent-encoded) request path after the base path and its slash
	 * @return completes when the response is sent
	 */
	public Mono<Void> handle(ServerWebExchange exchange, String rawKey) {
		ServerHttpRequest request = exchange.getRequest();
		ServerHttpResponse response = exchange.getResponse();
		HttpMethod method = request.getMethod();
		boolean write = HttpMethod.PUT.equals(method);
		if (!write && !HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			response.getHeaders().setAllow(Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.PUT));
			return respond(response, HttpStatus.METHOD_NOT_ALLOWED, "Use GET, HEAD or PUT");
		}
		CacheKey key;
		try {
			key = CacheKey.parse(rawKey);
		}
		catch (InvalidStoragePathException ex) {
			this.metrics.rejected("invalid-key");
			return respond(response, HttpStatus.BAD_REQUEST, ex.getMessage());
		}
		String address = address(request);
		return this.authenticator.authenticate(request, address).flatMap(outcome -> {
			if (outcome instanceof Outcome.Throttled throttled) {
				return throttled(response, throttled.retryAfter());
			}
			if (!(outcome instanceof Outcome.Authenticated authenticated)) {
				return unauthorized(response, "Wrong user name or password");
			}
			CacheCaller caller = authenticated.caller();
			if (!(write ? caller.mayWrite(this.anonymous) : caller.mayRead(this.anonymous))) {
				if (write) {
					this.audit.record(new AuditEvent(CacheAuthenticator.PROTOCOL, caller.name(), "write",
							this.mount + ":" + key, "denied", address));
				}
				if (caller.isAnonymous()) {
					return unauthorized(response, "Log in to " + (write ? "store entries" : "read entries"));
				}
				this.metrics.rejected("forbidden");
				return respond(response, HttpStatus.FORBIDDEN,
						"User '" + caller.name() + "' may not " + (write ? "store" : "read") + " cache entries");
			}
			Optional<Duration> wait = this.quotas.take(caller);
			if (wait.isPresent()) {
				return throttled(response, wait.get());
			}
			return write ? put(request, response, key) : get(response, key, HttpMethod.HEAD.equals(method));
		}).onErrorResume(error -> failed(response, error));
	}

	private Mono<Void> get(ServerHttpResponse response, CacheKey key, boolean head) {
		return this.store.get(key, !head)
			.map(entry -> send(response, entry, head))
			.defaultIfEmpty(Mono.defer(() -> {
				response.setStatusCode(HttpStatus.NOT_FOUND);
				response.getHeaders().setContentLength(0);
				return response.setComplete();
			}))
			.flatMap(action -> action);
	}

	private static Mono<Void> send(ServerHttpResponse response, CacheEntry entry, boolean head) {
		response.setStatusCode(HttpStatus.OK);
		HttpHeaders headers = response.getHeaders();
		headers.setContentLength(entry.length());
		headers.setContentType(MediaType.APPLICATION_OCTET_STREAM);
		return head ? response.setComplete() : response.writeWith(entry.content());
	}

	private Mono<Void> put(ServerHttpRequest request, ServerHttpResponse response, CacheKey key) {
		long length = request.getHeaders().getContentLength();
		if (length > this.maxEntrySize) {
			// Refused before the body is read: a client waiting for "100 Continue" never sends it.
			return tooLarge(response);
		}
		return this.store.put(key, request.getBody(), length).then(Mono.defer(() -> {
			response.setStatusCode(HttpStatus.CREATED);
			response.getHeaders().setContentLength(0);
			return response.setComplete();
		}));
	}

	/**
	 * Answers a health check of the cache's storage: 200 {@code {"status":"UP"}} or 503
	 * {@code {"status":"DOWN"}}, without authentication and without details.
	 * @param exchange the exchange
	 * @return completes when the response is sent
	 */
	public Mono<Void> health(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		HttpMethod method = exchange.getRequest().getMethod();
		if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			response.getHeaders().setAllow(Set.of(HttpMethod.GET, HttpMethod.HEAD));
			return respond(response, HttpStatus.METHOD_NOT_ALLOWED, "Use GET or HEAD");
		}
		return this.store.checkHealth()
			.timeout(HEALTH_TIMEOUT)
			.then(Mono.just(true))
			.onErrorResume(error -> Mono.just(false))
			.flatMap(up -> {
				response.setStatusCode(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
				response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
				response.getHeaders().setCacheControl("no-store");
				return write(response, up ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}");
			});
	}

	private Mono<Void> failed(ServerHttpResponse response, Throwable error) {
		if (response.isCommitted()) {
			// Too late for a status: failing aborts the connection, so the client sees an error, never a
			// short entry.
			return Mono.error(error);
		}
		if (error instanceof EntryTooLargeException) {
			return tooLarge(response);
		}
		if (error instanceof StorageException storage) {
			return switch (storage.kind()) {
				case NOT_FOUND -> {
					response.setStatusCode(HttpStatus.NOT_FOUND);
					response.getHeaders().setContentLength(0);
					yield response.setComplete();
				}
				case BACKEND_UNAVAILABLE -> {
					this.metrics.rejected("unavailable");
					response.getHeaders().set(HttpHeaders.RETRY_AFTER, "5");
					yield respond(response, HttpStatus.SERVICE_UNAVAILABLE, "The cache's storage is unavailable");
				}
				case QUOTA_EXCEEDED -> {
					this.metrics.rejected("full");
					yield respond(response, INSUFFICIENT_STORAGE, "The cache's storage is full");
				}
				case INVALID_PATH, INVALID_CONTENT -> respond(response, HttpStatus.BAD_REQUEST, storage.getMessage());
				case CONFLICT, ALREADY_EXISTS -> respond(response, HttpStatus.CONFLICT, storage.getMessage());
				case ACCESS_DENIED -> respond(response, HttpStatus.FORBIDDEN, "The cache's storage refused access");
				case UNSUPPORTED -> respond(response, HttpStatus.NOT_IMPLEMENTED, storage.getMessage());
				case IO_ERROR -> internalError(response, error);
			};
		}
		return internalError(response, error);
	}

	private Mono<Void> internalError(ServerHttpResponse response, Throwable error) {
		logger.warn("Build cache request failed", error);
		return respond(response, HttpStatus.INTERNAL_SERVER_ERROR, "The cache failed to answer");
	}

	private Mono<Void> unauthorized(ServerHttpResponse response, String message) {
		this.metrics.rejected("unauthorized");
		response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, this.challenge);
		return respond(response, HttpStatus.UNAUTHORIZED, message);
	}

	private Mono<Void> throttled(ServerHttpResponse response, Duration wait) {
		this.metrics.rejected("throttled");
		long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
		response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		return respond(response, HttpStatus.TOO_MANY_REQUESTS, "Too many requests; retry in " + seconds + " s");
	}

	private Mono<Void> tooLarge(ServerHttpResponse response) {
		this.metrics.rejected("too-large");
		return respond(response, HttpStatus.PAYLOAD_TOO_LARGE,
				"Entries are limited to " + this.maxEntrySize + " bytes");
	}

	private static Mono<Void> respond(ServerHttpResponse response, HttpStatusCode status, @Nullable String message) {
		response.setStatusCode(status);
		response.getHeaders().setContentType(TEXT);
		return write(response, (message != null) ? message + "\n" : "\n");
	}

	private static Mono<Void> write(ServerHttpResponse response, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		response.getHeaders().setContentLength(bytes.length);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(bytes)));
	}

	private static @Nullable String address(ServerHttpRequest request) {
		InetSocketAddress remote = request.getRemoteAddress();
		if (remote == null) {
			return null;
		}
		return (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
	}

}
