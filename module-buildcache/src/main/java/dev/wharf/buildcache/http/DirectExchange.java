package dev.wharf.buildcache.http;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A GET or HEAD that the {@link CacheFastLane} took off the connection, answered on it
 * directly: the response is written through the rest of the pipeline in front of the lane
 * (codec, timeouts), never through Reactor Netty. The lane takes HTTP/1.1 requests
 * without a body only. One instance per request; the writes may come from any thread
 * (Netty runs them on the connection's event loop, in order).
 */
final class DirectExchange extends CacheExchange {

	/**
	 * The client's address as text, worked out once per connection rather than per
	 * request.
	 */
	private static final AttributeKey<String> CLIENT_ADDRESS = AttributeKey.valueOf(DirectExchange.class,
			"clientAddress");

	private final ChannelHandlerContext ctx;

	private final HttpRequest request;

	/**
	 * Makes the response's headers without checking each name and value again: they are
	 * this module's own (constants, numbers, and the realm, checked when configured),
	 * never a client's, and the check was about 5 % of the CPU time of a small GET.
	 */
	private static final DefaultHttpHeadersFactory OWN_HEADERS = DefaultHttpHeadersFactory.headersFactory()
		.withValidation(false);

	private final HttpHeaders headers = OWN_HEADERS.newHeaders();

	private volatile boolean sentHeaders;

	DirectExchange(ChannelHandlerContext ctx, HttpRequest request) {
		super(request.method());
		this.ctx = ctx;
		this.request = request;
	}

	@Override
	HttpHeaders requestHeaders() {
		return this.request.headers();
	}

	@Override
	@Nullable InetSocketAddress remoteAddress() {
		return (this.ctx.channel().remoteAddress() instanceof InetSocketAddress address) ? address : null;
	}

	@Override
	@Nullable String clientAddress() {
		Attribute<String> kept = this.ctx.channel().attr(CLIENT_ADDRESS);
		String address = kept.get();
		if (address == null) {
			address = super.clientAddress();
			kept.set(address);
		}
		return address;
	}

	@Override
	Channel channel() {
		return this.ctx.channel();
	}

	@Override
	Flux<ByteBuf> body() {
		throw new IllegalStateException("The fast lane takes requests without a body only");
	}

	@Override
	void header(CharSequence name, String value) {
		this.headers.set(name, value);
	}

	@Override
	boolean hasSentHeaders() {
		return this.sentHeaders;
	}

	@Override
	Mono<Void> sendHead(HttpResponseStatus status) {
		return sendWhole(status, Unpooled.EMPTY_BUFFER);
	}

	@Override
	Mono<Void> sendWhole(HttpResponseStatus status, ByteBuf body) {
		this.sentHeaders = true;
		// Done once written to the pipeline: a write that fails closes the connection,
		// as an aborted response does on the regular route.
		this.ctx
			.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, this.headers,
					DefaultHttpHeadersFactory.trailersFactory().newEmptyHeaders()))
			.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
		return Mono.empty();
	}

	@Override
	Mono<Void> sendStream(HttpResponseStatus status, Flux<ByteBuf> body) {
		this.sentHeaders = true;
		this.ctx.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, status, this.headers))
			.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
		// One buffer at a time, the next once the last is out: a client that reads slowly
		// holds back the storage, not the heap (and the write-progress timeout ends a
		// client that stops reading).
		return body.doOnDiscard(ByteBuf.class, ReferenceCountUtil::safeRelease)
			.concatMap(buffer -> written(this.ctx.writeAndFlush(new DefaultHttpContent(buffer))), 1)
			.then(Mono.defer(() -> written(this.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT))));
	}

	private static Mono<Void> written(ChannelFuture future) {
		return Mono.create(sink -> future.addListener(done -> {
			if (done.isSuccess()) {
				sink.success();
			}
			else {
				sink.error(done.cause());
			}
		}));
	}

}
