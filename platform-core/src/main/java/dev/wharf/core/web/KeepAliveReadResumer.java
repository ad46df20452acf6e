package dev.wharf.core.web;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Asks the channel to read again each time a response has been written. Reactor Netty
 * 1.3.7 (Spring Boot 4.1.1) reads HTTP/1.1 connections on demand and can forget to ask
 * for the next read when a keep-alive request arrives while the previous one is still
 * completing on another thread (reactor/reactor-netty#4361): the connection then hangs
 * for good. That happens whenever a handler finishes on a storage or auth worker, so
 * keep-alive clients (ab, wrk, Gatling, browsers) hit it within seconds. The fix, Reactor
 * Netty 1.3.8, needs Netty 4.2.19, whose native jars are not all on Maven Central yet; an
 * extra read request is harmless (Reactor Netty buffers a request that arrives early).
 */
@Sharable
public final class KeepAliveReadResumer extends ChannelOutboundHandlerAdapter {

	/** The handler's name in the pipeline. */
	public static final String NAME = "wharf.keepAliveReadResumer";

	private static final KeepAliveReadResumer INSTANCE = new KeepAliveReadResumer();

	private static final ChannelFutureListener RESUME = future -> {
		Channel channel = future.channel();
		if (channel.isActive()) {
			channel.eventLoop().execute(channel::read);
		}
	};

	private KeepAliveReadResumer() {
	}

	/**
	 * Installs the handler on every connection of a server, right after the HTTP codec.
	 * @param server the server
	 * @return the server with the handler
	 */
	public static HttpServer install(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(NAME) == null) {
				channel.pipeline().addAfter(NettyPipeline.HttpCodec, NAME, INSTANCE);
			}
		});
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (msg instanceof LastHttpContent) {
			ctx.write(msg, promise.unvoid()).addListener(RESUME);
			return;
		}
		ctx.write(msg, promise);
	}

}
