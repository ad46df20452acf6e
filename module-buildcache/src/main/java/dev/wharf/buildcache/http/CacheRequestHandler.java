package dev.wharf.buildcache.http;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;

import javax.net.ssl.SSLPeerUnverifiedException;

import dev.wharf.buildcache.access.AnonymousAccess;
import dev.wharf.buildcache.access.CacheAuthenticator;
import dev.wharf.buildcache.access.CacheAuthenticator.Outcome;
import dev.wharf.buildcache.access.CacheCaller;
import dev.wharf.buildcache.access.RequestQuotas;
import dev.wharf.buildcache.store.CacheKey;
import dev.wharf.buildcache.store.CacheMetrics;
import dev.wharf.buildcache.store.CacheStore;
import dev.wharf.buildcache.store.EntryTooLargeException;
import dev.wharf.buildcache.store.HeldEntry;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.AuditLog.AuditEvent;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageErrorKind;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.web.StorageErrorStatus;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.SslHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The cache protocol that Gradle's {@code HttpBuildCache} and the Maven build-cache
 * extension speak: {@code GET}/{@code HEAD} answer 200 with the entry or 404, {@code PUT}
 * stores and answers 201.
 *
 * <p>
 * Every check comes before the request body is read: the key (400), the credentials (401
 * with a {@code WWW-Authenticate} challenge, which Maven waits for before it sends
 * credentials on GET), the role (403, or 401 for an anonymous caller who could log in),
 * the quota (429 with {@code Retry-After}) and an announced length over the limit (413).
 * Reactor Netty answers {@code Expect: 100-continue} only when the body is first read, so
 * a client that waits for it never sends a body that is refused. A body of unannounced
 * length is cut off at the limit (413, nothing stored). Storage failures map to 503
 * (backend down), 507 (out of space) or 500; an error after the response started aborts
 * the connection, so a client never takes a truncated entry for a whole one.
 *
 * <p>
 * Works on Reactor Netty's request and response directly (see {@link CacheRoutes}), or on
 * the connection itself for the GET and HEAD requests the {@link CacheFastLane} takes.
 * Thread-safe; never blocks.
 */
public final class CacheRequestHandler {

	private static final Log logger = LogFactory.getLog(CacheRequestHandler.class);

	private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(3);

	private static final NettyDataBufferFactory BUFFERS = new NettyDataBufferFactory(ByteBufAllocator.DEFAULT);

	private final String mount;

	private final CacheStore store;

	private final CacheAuthenticator authenticator;

	private final AnonymousAccess anonymous;

	private final RequestQuotas quotas;

	private final long maxEntrySize;

	private final String challenge;

	private final boolean certificates;

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
	 * @param certificates whether TLS client certificates may identify users
	 * @param metrics where refusals are counted
	 * @param audit where refused writes are recorded
	 */
	public CacheRequestHandler(String mount, CacheStore store, CacheAuthenticator authenticator,
			AnonymousAccess anonymous, RequestQuotas quotas, long maxEntrySize, String realm, boolean certificates,
			CacheMetrics metrics, AuditLog audit) {
		this.mount = mount;
		this.store = store;
		this.authenticator = authenticator;
		this.anonymous = anonymous;
		this.quotas = quotas;
		this.maxEntrySize = maxEntrySize;
		this.challenge = "Basic realm=\"" + realm + "\", charset=\"UTF-8\"";
		this.certificates = certificates;
		this.metrics = metrics;
		this.audit = audit;
	}

	/**
	 * Handles a request for an entry.
	 * @param request the request
	 * @param response its response
	 * @param rawKey the raw (percent-encoded) request path after the base path and its
	 * slash
	 * @return completes when the response is sent
	 */
	public Mono<Void> handle(HttpServerRequest request, HttpServerResponse response, String rawKey) {
		return handle(new RoutedExchange(request, response), rawKey);
	}

	/**
	 * Handles a GET or HEAD that the fast lane took off the connection, answering on the
	 * connection itself.
	 * @param ctx the fast lane's place in the connection's pipeline
	 * @param request the request, which has no body
	 * @param rawKey the raw (percent-encoded) request path after the base path and its
	 * slash
	 * @return completes when the response is written to the pipeline; fails if it could
	 * not be completed (the connection is to be closed)
	 */
	Mono<Void> handleDirectly(ChannelHandlerContext ctx, HttpRequest request, String rawKey) {
		CacheExchange exchange = new DirectExchange(ctx, request);
		// A failure before the answer's own chain starts is answered as any other.
		return Mono.defer(() -> handle(exchange, rawKey)).onErrorResume(error -> failed(exchange, error));
	}

	private Mono<Void> handle(CacheExchange reply, String rawKey) {
		reply.confirmKeepAlive();
		HttpMethod method = reply.method();
		boolean write = HttpMethod.PUT.equals(method);
		if (!write && !HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			reply.header(HttpHeaderNames.ALLOW, "GET, HEAD, PUT");
			return reply.text(HttpResponseStatus.METHOD_NOT_ALLOWED, "Use GET, HEAD or PUT");
		}
		CacheKey key;
		try {
			key = CacheKey.parse(rawKey);
		}
		catch (InvalidStoragePathException ex) {
			this.metrics.rejected("invalid-key");
			return reply.text(HttpResponseStatus.BAD_REQUEST, ex.getMessage());
		}
		HttpHeaders headers = reply.requestHeaders();
		String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
		X509Certificate certificate = (this.certificates && authorization == null) ? peerCertificate(reply.channel())
				: null;
		// The address costs a string per request: only worked out when something uses it.
		String address = (authorization != null || certificate != null || this.quotas.isLimited() || write)
				? reply.clientAddress() : null;
		// Most requests carry a password checked lately for an entry the storage holds in
		// memory: answered at once, without the operators of the asynchronous way (about
		// a third of such a request's time).
		Mono<Void> answer;
		try {
			Outcome atHand = this.authenticator.authenticateAtHand(authorization, certificate, address);
			answer = (atHand != null) ? authenticated(reply, key, write, address, atHand) : null;
		}
		catch (RuntimeException ex) {
			return failed(reply, ex);
		}
		if (answer == null) {
			answer = this.authenticator.authenticate(authorization, certificate, address)
				.flatMap(outcome -> authenticated(reply, key, write, address, outcome));
		}
		return answer.onErrorResume(error -> failed(reply, error));
	}

	private Mono<Void> authenticated(CacheExchange reply, CacheKey key, boolean write, @Nullable String address,
			Outcome outcome) {
		if (outcome instanceof Outcome.Throttled throttled) {
			return throttled(reply, throttled.retryAfter());
		}
		if (outcome instanceof Outcome.Unavailable unavailable) {
			return unavailable(reply, unavailable.retryAfter(), "Logins are unavailable; try again later");
		}
		if (!(outcome instanceof Outcome.Authenticated authenticated)) {
			return unauthorized(reply, "Wrong user name or password");
		}
		CacheCaller caller = authenticated.caller();
		if (!(write ? caller.mayWrite(this.anonymous) : caller.mayRead(this.anonymous))) {
			if (write) {
				this.audit.record(new AuditEvent(CacheAuthenticator.PROTOCOL, caller.name(), "write",
						this.mount + ":" + key, "denied", address));
			}
			if (caller.isAnonymous()) {
				return unauthorized(reply, "Log in to " + (write ? "store entries" : "read entries"));
			}
			this.metrics.rejected("forbidden");
			return reply.text(HttpResponseStatus.FORBIDDEN,
					"User '" + caller.name() + "' may not " + (write ? "store" : "read") + " cache entries");
		}
		Optional<Duration> wait = this.quotas.take(caller);
		if (wait.isPresent()) {
			return throttled(reply, wait.get());
		}
		return write ? put(reply, key) : get(reply, key);
	}

	private Mono<Void> get(CacheExchange reply, CacheKey key) {
		HeldEntry held = this.store.getAtHand(key, !reply.isHead(), CacheExchange.WHOLE);
		if (held != null) {
			return reply.entry(held);
		}
		return this.store.get(key, !reply.isHead())
			.map(entry -> reply.entry(entry))
			.defaultIfEmpty(Mono.defer(() -> reply.empty(HttpResponseStatus.NOT_FOUND)))
			.flatMap(send -> send);
	}

	private Mono<Void> put(CacheExchange reply, CacheKey key) {
		long length;
		try {
			String announced = reply.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
			length = (announced != null) ? Long.parseLong(announced.trim()) : -1;
		}
		catch (NumberFormatException ex) {
			return reply.text(HttpResponseStatus.BAD_REQUEST, "Content-Length is not a number");
		}
		if (length > this.maxEntrySize) {
			// Refused before the body is read: a client waiting for "100 Continue" never
			// sends it.
			return tooLarge(reply);
		}
		// As Spring does: hold each buffer past Reactor Netty's own release; the storage
		// releases it.
		Flux<DataBuffer> body = reply.body().map(BUFFERS::wrap);
		return this.store.put(key, body, length).then(Mono.defer(() -> reply.empty(HttpResponseStatus.CREATED)));
	}

	/**
	 * Answers a health check of the cache's storage: 200 {@code {"status":"UP"}} or 503
	 * {@code {"status":"DOWN"}}, without authentication and without details.
	 * @param request the request
	 * @param response its response
	 * @return completes when the response is sent
	 */
	public Mono<Void> health(HttpServerRequest request, HttpServerResponse response) {
		CacheExchange reply = new RoutedExchange(request, response);
		reply.confirmKeepAlive();
		HttpMethod method = request.method();
		if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			reply.header(HttpHeaderNames.ALLOW, "GET, HEAD");
			return reply.text(HttpResponseStatus.METHOD_NOT_ALLOWED, "Use GET or HEAD");
		}
		return this.store.checkHealth()
			.timeout(HEALTH_TIMEOUT)
			.then(Mono.just(true))
			.onErrorResume(error -> Mono.just(false))
			.flatMap(up -> {
				reply.header(HttpHeaderNames.CACHE_CONTROL, "no-store");
				return reply.bytes(up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
						"application/json", up ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}");
			});
	}

	private Mono<Void> failed(CacheExchange reply, Throwable error) {
		if (reply.hasSentHeaders()) {
			// Too late for a status: failing aborts the connection, so the client sees an
			// error, never a
			// short entry.
			return Mono.error(error);
		}
		if (error instanceof EntryTooLargeException) {
			return tooLarge(reply);
		}
		if (error instanceof SharedStateUnavailableException down) {
			return unavailable(reply, down.retryAfter(), "The cache's index is unavailable; try again later");
		}
		if (error instanceof StorageException storage) {
			StorageErrorKind kind = storage.kind();
			if (kind == StorageErrorKind.IO_ERROR) {
				return internalError(reply, error);
			}
			HttpResponseStatus status = HttpResponseStatus.valueOf(StorageErrorStatus.of(kind).value());
			Duration retryAfter = StorageErrorStatus.retryAfter(kind);
			if (retryAfter != null) {
				reply.header(HttpHeaderNames.RETRY_AFTER, Long.toString(retryAfter.toSeconds()));
			}
			// The status is core's, as in every HTTP module; the words are the cache's.
			return switch (kind) {
				case NOT_FOUND -> reply.empty(status);
				case BACKEND_UNAVAILABLE -> {
					// The client sees only a 503 (a miss to Gradle and Maven), so the log
					// says why, as the file manager's does.
					logger.warn("Build cache storage unavailable: " + storage.getMessage(), storage.getCause());
					this.metrics.rejected("unavailable");
					yield reply.text(status, "The cache's storage is unavailable");
				}
				case QUOTA_EXCEEDED -> {
					this.metrics.rejected("full");
					yield reply.text(status, "The cache's storage is full");
				}
				case ACCESS_DENIED -> reply.text(status, "The cache's storage refused access");
				default -> reply.text(status, storage.getMessage());
			};
		}
		return internalError(reply, error);
	}

	private Mono<Void> internalError(CacheExchange reply, Throwable error) {
		logger.warn("Build cache request failed", error);
		return reply.text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "The cache failed to answer");
	}

	private Mono<Void> unauthorized(CacheExchange reply, String message) {
		this.metrics.rejected("unauthorized");
		reply.header(HttpHeaderNames.WWW_AUTHENTICATE, this.challenge);
		return reply.text(HttpResponseStatus.UNAUTHORIZED, message);
	}

	private Mono<Void> throttled(CacheExchange reply, Duration wait) {
		this.metrics.rejected("throttled");
		long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
		reply.header(HttpHeaderNames.RETRY_AFTER, Long.toString(seconds));
		return reply.text(HttpResponseStatus.TOO_MANY_REQUESTS, "Too many requests; retry in " + seconds + " s");
	}

	private Mono<Void> unavailable(CacheExchange reply, Duration wait, String message) {
		this.metrics.rejected("unavailable");
		reply.header(HttpHeaderNames.RETRY_AFTER, Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
		return reply.text(HttpResponseStatus.SERVICE_UNAVAILABLE, message);
	}

	private Mono<Void> tooLarge(CacheExchange reply) {
		this.metrics.rejected("too-large");
		return reply.text(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
				"Entries are limited to " + this.maxEntrySize + " bytes");
	}

	/** The verified certificate the client presented in the TLS handshake, if any. */
	private static @Nullable X509Certificate peerCertificate(@Nullable Channel channel) {
		if (channel == null) {
			return null;
		}
		SslHandler ssl = channel.pipeline().get(SslHandler.class);
		if (ssl == null) {
			return null;
		}
		try {
			Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
			return (chain.length > 0 && chain[0] instanceof X509Certificate certificate) ? certificate : null;
		}
		catch (SSLPeerUnverifiedException none) {
			return null;
		}
	}

}
