package dev.wharf.buildcache.http;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import dev.wharf.core.web.RequestTargets;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Takes the cache's commonest request, a GET or HEAD of an entry on a kept-alive HTTP/1.1
 * connection, off the connection before Reactor Netty sees it, and has the
 * {@link CacheRequestHandler} answer it there, with the same checks, meters and bytes as
 * on the regular route ({@link CacheRoutes}). What it saves is Reactor Netty's work per
 * request: its request and response objects, route matching, and the timeout handlers it
 * adds to and removes from the pipeline around every request; together about a quarter of
 * the CPU time of a small GET.
 *
 * <p>
 * Everything else goes on to the regular route: PUT, health checks, requests with a body
 * or {@code Expect}, {@code Upgrade} or forwarding headers (whose client address Reactor
 * Netty may take from them), HTTP/1.0 and connections not kept alive, and HTTP/2. Answers
 * are never reordered (see {@link CacheFastLaneHandler}).
 *
 * <p>
 * Thread-safe.
 */
public final class CacheFastLane implements NettyServerCustomizer {

	private static final String FORWARDED = "Forwarded";

	private static final String X_FORWARDED_FOR = "X-Forwarded-For";

	private final String basePath;

	private final CacheRequestHandler handler;

	private final long idleTimeoutNanos;

	private final LongAdder answered = new LongAdder();

	/**
	 * Creates the lane.
	 * @param basePath the base path, without a trailing slash, such as {@code /cache}
	 * @param handler answers the requests
	 * @param idleTimeout the server's idle timeout ({@code server.netty.idle-timeout}),
	 * which the lane keeps on the connections whose last request it answered;
	 * {@code null} for none
	 */
	public CacheFastLane(String basePath, CacheRequestHandler handler, @Nullable Duration idleTimeout) {
		this.basePath = basePath;
		this.handler = handler;
		this.idleTimeoutNanos = (idleTimeout != null && !idleTimeout.isNegative() && !idleTimeout.isZero())
				? idleTimeout.toNanos() : 0;
	}

	/**
	 * Puts the lane on every HTTP/1.1 connection of a server, between the HTTP codec and
	 * Reactor Netty.
	 * @param server the server
	 * @return the server with the lane
	 */
	@Override
	public HttpServer apply(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			ChannelPipeline pipeline = channel.pipeline();
			if (pipeline.get(NettyPipeline.HttpTrafficHandler) != null
					&& pipeline.get(CacheFastLaneHandler.NAME) == null) {
				pipeline.addBefore(NettyPipeline.HttpTrafficHandler, CacheFastLaneHandler.NAME,
						new CacheFastLaneHandler(this, this.idleTimeoutNanos));
			}
		});
	}

	/**
	 * The raw key of a request the lane takes.
	 * @param request a request whose body (if any) has not been read
	 * @return the raw (percent-encoded) path after the base path and its slash, or
	 * {@code null} if the request goes the regular route
	 */
	@Nullable String key(HttpRequest request) {
		HttpMethod method = request.method();
		if ((!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method))
				|| !HttpVersion.HTTP_1_1.equals(request.protocolVersion()) || !request.decoderResult().isSuccess()
				|| !plainRequest(request)) {
			return null;
		}
		String path = RequestTargets.path(request.uri());
		int base = this.basePath.length();
		if (path.length() <= base + 1 || path.charAt(base) != '/' || !path.startsWith(this.basePath)) {
			return null;
		}
		return path.substring(base + 1);
	}

	/**
	 * Answers a request the lane took.
	 * @param ctx the lane's place in the pipeline
	 * @param request the request
	 * @param rawKey its {@link #key}
	 * @return completes once the response is written to the pipeline; fails if the
	 * connection is to be closed
	 */
	Mono<Void> answer(ChannelHandlerContext ctx, HttpRequest request, String rawKey) {
		this.answered.increment();
		return this.handler.handleDirectly(ctx, request, rawKey);
	}

	/** How many requests the lane answered, for tests. */
	long answered() {
		return this.answered.sum();
	}

	/** A kept-alive request without body, expectation, upgrade or forwarding headers. */
	private static boolean plainRequest(HttpRequest request) {
		HttpHeaders headers = request.headers();
		return HttpUtil.isKeepAlive(request) && !HttpUtil.isTransferEncodingChunked(request)
				&& HttpUtil.getContentLength(request, 0L) == 0 && !headers.contains(HttpHeaderNames.EXPECT)
				&& !headers.contains(HttpHeaderNames.UPGRADE) && !headers.contains(FORWARDED)
				&& !headers.contains(X_FORWARDED_FOR);
	}

}
