package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import dev.wharf.staticfiles.cache.FileCache;
import dev.wharf.core.web.RequestTargets;
import dev.wharf.staticfiles.resolve.Representation;
import dev.wharf.staticfiles.resolve.ResolvedFile;
import dev.wharf.staticfiles.resolve.SharedChannel;
import dev.wharf.staticfiles.resolve.StoredFile;
import dev.wharf.staticfiles.site.Site;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.jspecify.annotations.Nullable;

/**
 * Answers the commonest static request, a plain GET or HEAD of a cached file, directly on
 * the connection, without Reactor Netty's per-request machinery: the cached bytes go out
 * with their prebuilt headers in one write; a cached local file goes out with sendfile(2)
 * from its shared open channel, its headers corked in front of it. That is the same
 * system-call path as nginx, with no allocation beyond the response itself.
 *
 * <p>
 * Everything else goes on to the regular route ({@link StaticHandler}): conditional and
 * range requests, files not cached or due for a check, requests with a body or
 * {@code Expect}, connections not kept alive, TLS and HTTP/2. Answers are never
 * reordered: a connection with a request still in Reactor Netty's hands gets everything
 * through Reactor Netty (see {@link FastLaneHandler}).
 *
 * <p>
 * Thread-safe; runs on event loops and never blocks.
 */
final class FastLane {

	private final List<Site> sites;

	private final FileCache cache;

	private final StaticMetrics metrics;

	private final LongAdder answered = new LongAdder();

	FastLane(List<Site> sites, FileCache cache, StaticMetrics metrics) {
		this.sites = sites;
		this.cache = cache;
		this.metrics = metrics;
	}

	/**
	 * Answers a request if it is a plain hit.
	 * @param ctx where to write the response
	 * @param request the request, whose body (if any) has not been read
	 * @return whether it was answered; if not, the caller passes the request on
	 */
	boolean answer(ChannelHandlerContext ctx, HttpRequest request) {
		HttpMethod method = request.method();
		boolean head = HttpMethod.HEAD.equals(method);
		if ((!head && !HttpMethod.GET.equals(method)) || !request.decoderResult().isSuccess()
				|| !plainRequest(request)) {
			return false;
		}
		String target = request.uri();
		Site site = site(target, request.headers());
		if (site == null) {
			return false;
		}
		String rawPath = RequestTargets.path(target);
		if (rawPath.length() == site.prefix().length()) {
			return false;
		}
		ResolvedFile file = this.cache.peek(site, rawPath);
		if (file == null) {
			return false;
		}
		Representation representation = Responder.select(file, request.headers().get(HttpHeaderNames.ACCEPT_ENCODING));
		byte[] body = representation.body();
		if (body != null) {
			HttpHeaders headers = headers(representation, request);
			ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body);
			count(site);
			ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, content, headers,
					DefaultHttpHeadersFactory.trailersFactory().newEmptyHeaders()));
			return true;
		}
		if (representation.compressOnTheFly()) {
			return false;
		}
		if (head) {
			count(site);
			ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					Unpooled.EMPTY_BUFFER, headers(representation, request),
					DefaultHttpHeadersFactory.trailersFactory().newEmptyHeaders()));
			return true;
		}
		if (!FileSender.plain(ctx.channel())) {
			return false;
		}
		StoredFile source = representation.source();
		SharedChannel shared = acquire(source);
		if (shared == null) {
			return false;
		}
		HttpHeaders headers = headers(representation, request);
		count(site);
		Channel channel = ctx.channel();
		boolean corked = FileSender.cork(channel, true);
		ctx.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, headers));
		ctx.write(new SharedRegion(shared, 0, source.size()));
		ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(done -> {
			if (corked) {
				FileSender.cork(channel, false);
			}
		});
		return true;
	}

	/** How many requests the fast lane answered, for tests. */
	long answered() {
		return this.answered.sum();
	}

	/**
	 * Counts an answer, before it is written (so whoever reads the response sees it
	 * counted).
	 */
	private void count(Site site) {
		this.metrics.record(site, 200);
		this.answered.increment();
	}

	/** A kept-alive request without body, preconditions, ranges or expectations. */
	private static boolean plainRequest(HttpRequest request) {
		HttpHeaders headers = request.headers();
		return HttpUtil.isKeepAlive(request) && !HttpUtil.isTransferEncodingChunked(request)
				&& HttpUtil.getContentLength(request, 0L) == 0 && !headers.contains(HttpHeaderNames.EXPECT)
				&& !headers.contains(HttpHeaderNames.RANGE) && !headers.contains(HttpHeaderNames.IF_NONE_MATCH)
				&& !headers.contains(HttpHeaderNames.IF_MODIFIED_SINCE) && !headers.contains(HttpHeaderNames.IF_MATCH)
				&& !headers.contains(HttpHeaderNames.IF_UNMODIFIED_SINCE);
	}

	private @Nullable Site site(String target, HttpHeaders headers) {
		for (Site site : this.sites) {
			if (site.matches(target, site.hosts().isEmpty() ? null : headers.get(HttpHeaderNames.HOST))) {
				return site;
			}
		}
		return null;
	}

	private static @Nullable SharedChannel acquire(StoredFile source) {
		try {
			return source.acquireChannel();
		}
		catch (IOException ex) {
			// Changed or gone: the regular route resolves it again and answers properly.
			return null;
		}
	}

	private static HttpHeaders headers(Representation representation, HttpRequest request) {
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders().set(representation.headers());
		Responder.addCommonHeaders(headers, request.protocolVersion(), true);
		return headers;
	}

}
