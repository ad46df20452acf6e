package dev.wharf.core.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Refuses an HTTP/1.1 request whose {@code Transfer-Encoding} is anything but one final
 * {@code chunked}, right behind the HTTP codec, so before every handler of every HTTP
 * module (the build cache's and static sites' routes, the static fast lane, WebFlux with
 * the file manager and the actuator).
 *
 * <p>
 * Netty frames a request body as chunked when {@code chunked} is among the codings and
 * otherwise, without a {@code Content-Length}, reads no body at all:
 * {@code Transfer-Encoding: xchunked} reached handlers as a request without a body (a
 * build-cache PUT stored an empty entry and answered 201), and the body's bytes were then
 * read as the next request. As RFC 9112 (section 6.1) asks, a coding the server does not
 * know is answered 501, and a header that leaves the body's length unknown (chunked not
 * last, chunked twice, an empty or malformed list, or any {@code Transfer-Encoding} on an
 * HTTP/1.0 request) 400. Either way the request goes no further, its body is discarded
 * unread, and the connection closes after the answer. A refusal pipelined behind a
 * response still being written waits for that response, never cutting into it.
 *
 * <p>
 * One instance per connection; everything runs on the connection's event loop.
 */
public final class TransferEncodingCheck extends ChannelDuplexHandler {

	/** The handler's name in the pipeline. */
	public static final String NAME = "wharf.transferEncodingCheck";

	/** Requests passed on whose responses are not completely written yet. */
	private int responsesPending;

	/** Whether a request was refused: everything read from now on is discarded. */
	private boolean refused;

	/** A refusal waiting for the responses before it. */
	private @Nullable FullHttpResponse waiting;

	private TransferEncodingCheck() {
	}

	/**
	 * Installs the check on every HTTP/1.1 connection of a server, right after the HTTP
	 * codec.
	 * @param server the server
	 * @return the server with the check
	 */
	public static HttpServer install(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			ChannelPipeline pipeline = channel.pipeline();
			if (pipeline.get(NettyPipeline.HttpCodec) != null && pipeline.get(NAME) == null) {
				pipeline.addAfter(NettyPipeline.HttpCodec, NAME, new TransferEncodingCheck());
			}
		});
	}

	/**
	 * What is wrong with a request's framing.
	 * @param request a decoded request head
	 * @return 501 for a coding other than {@code chunked}, 400 for a malformed header, or
	 * {@code null} if the request has no {@code Transfer-Encoding} or just
	 * {@code chunked}
	 */
	static @Nullable HttpResponseStatus problem(HttpRequest request) {
		List<String> values = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
		if (values.isEmpty()) {
			return null;
		}
		if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
			return HttpResponseStatus.BAD_REQUEST;
		}
		List<String> codings = new ArrayList<>();
		for (String value : values) {
			for (String element : value.split(",", -1)) {
				String coding = element.trim();
				if (!coding.isEmpty()) {
					codings.add(coding);
				}
			}
		}
		if (codings.isEmpty()) {
			return HttpResponseStatus.BAD_REQUEST;
		}
		int chunked = 0;
		for (String coding : codings) {
			int semicolon = coding.indexOf(';');
			if (!isToken((semicolon < 0) ? coding : coding.substring(0, semicolon).trim())) {
				return HttpResponseStatus.BAD_REQUEST;
			}
			if (coding.equalsIgnoreCase("chunked")) {
				chunked++;
			}
		}
		if (chunked > 1 || (chunked == 1 && !codings.get(codings.size() - 1).equalsIgnoreCase("chunked"))) {
			return HttpResponseStatus.BAD_REQUEST;
		}
		return (chunked == 1 && codings.size() == 1) ? null : HttpResponseStatus.NOT_IMPLEMENTED;
	}

	private static boolean isToken(String text) {
		if (text.isEmpty()) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
			if (!tchar) {
				return false;
			}
		}
		return true;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.refused) {
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
			HttpResponseStatus problem = problem(request);
			if (problem != null) {
				this.refused = true;
				ReferenceCountUtil.release(msg);
				FullHttpResponse refusal = refusal(problem);
				if (this.responsesPending == 0) {
					send(ctx, refusal);
				}
				else {
					this.waiting = refusal;
				}
				return;
			}
		}
		if (msg instanceof HttpRequest) {
			this.responsesPending++;
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (!ResponseEnds.endsResponse(msg) || this.responsesPending == 0) {
			ctx.write(msg, promise);
			return;
		}
		this.responsesPending--;
		ctx.write(msg, promise);
		FullHttpResponse refusal = this.waiting;
		if (this.responsesPending == 0 && refusal != null) {
			this.waiting = null;
			send(ctx, refusal);
		}
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		FullHttpResponse refusal = this.waiting;
		if (refusal != null) {
			this.waiting = null;
			refusal.release();
		}
	}

	private static void send(ChannelHandlerContext ctx, FullHttpResponse refusal) {
		ctx.writeAndFlush(refusal).addListener(ChannelFutureListener.CLOSE);
	}

	private static FullHttpResponse refusal(HttpResponseStatus status) {
		String text = (status.equals(HttpResponseStatus.NOT_IMPLEMENTED))
				? "Transfer-Encoding: only chunked is supported\n"
				: "Transfer-Encoding: malformed (chunked must be the last coding, once; none on HTTP/1.0)\n";
		byte[] body = text.getBytes(StandardCharsets.US_ASCII);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
				Unpooled.wrappedBuffer(body));
		response.headers()
			.set(HttpHeaderNames.CONTENT_TYPE, "text/plain;charset=utf-8")
			.set(HttpHeaderNames.CONTENT_LENGTH, body.length)
			.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		return response;
	}

}
