package dev.wharf.core.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import org.jspecify.annotations.Nullable;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Closes an HTTP/1.1 connection whose request head (request line and headers) is not
 * complete within a time of its first byte, answering 408 first when no response is under
 * way. Against slowloris: Reactor Netty's idle timeout restarts with every byte, so a
 * client trickling one header byte every few seconds would otherwise keep its connection
 * forever (up to the header size limit, which at that pace takes a day).
 *
 * <p>
 * Two handlers per connection share one timer: one in front of the HTTP codec sees raw
 * bytes and starts timing at the first byte of a head; one behind the codec sees the
 * decoded request and ends it, and sees the request's last content (the next bytes start
 * the next head) and the responses going out. A head pipelined behind a response still
 * being written is answered once that response is complete, never in the middle of it.
 * Waiting between keep-alive requests (and a partial pipelined head that stops with no
 * further byte) is left to {@code server.netty.idle-timeout}. Everything runs on the
 * connection's event loop.
 *
 * <p>
 * The timer is not set and cancelled per request: scheduling and cancelling a task on the
 * event loop for every head was about 2-3 % of the CPU time of a small static file served
 * over keep-alive (profile in docs/benchmarks/static.md). A head's start is noted
 * instead, and one timer per connection, set when a head starts and none is pending,
 * checks the head under way when it fires and sets itself again for that head's remaining
 * time; it lapses when no head is under way.
 */
public final class RequestHeadTimeout {

	/** The name of the handler in front of the codec. */
	public static final String RAW_NAME = "wharf.requestHeadTimeout.raw";

	/** The name of the handler behind the codec. */
	public static final String DECODED_NAME = "wharf.requestHeadTimeout.decoded";

	private static final byte[] TIMEOUT_RESPONSE = ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
			+ "Content-Type: text/plain;charset=utf-8\r\nContent-Length: 39\r\n\r\n"
			+ "The request head did not arrive in time")
		.getBytes(StandardCharsets.US_ASCII);

	private final long timeoutNanos;

	/** Whether the next bytes start a request head (not a body). */
	private boolean awaitingHead = true;

	/** Whether a head's first byte arrived and the head is not decoded yet. */
	private boolean headUnderWay;

	/** When the head under way started ({@link System#nanoTime()}). */
	private long headStartedAt;

	/** Requests read whose responses have not been written completely. */
	private int responsesPending;

	private @Nullable ScheduledFuture<?> timer;

	/** Whether the timer fired while a response was being written. */
	private boolean expiredDuringResponse;

	/** The context of the handler in front of the codec. */
	private @Nullable ChannelHandlerContext rawContext;

	private RequestHeadTimeout(Duration timeout) {
		this.timeoutNanos = timeout.toNanos();
	}

	/**
	 * Installs the timeout on every HTTP/1.1 connection of a server.
	 * @param server the server
	 * @param timeout the most time from a head's first byte to its end; zero leaves the
	 * server unchanged
	 * @return the server with the timeout
	 */
	public static HttpServer install(HttpServer server, Duration timeout) {
		if (timeout.isZero()) {
			return server;
		}
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			ChannelPipeline pipeline = channel.pipeline();
			if (pipeline.get(NettyPipeline.HttpCodec) != null && pipeline.get(RAW_NAME) == null) {
				RequestHeadTimeout timeoutState = new RequestHeadTimeout(timeout);
				pipeline.addBefore(NettyPipeline.HttpCodec, RAW_NAME, timeoutState.new Raw());
				pipeline.addAfter(NettyPipeline.HttpCodec, DECODED_NAME, timeoutState.new Decoded());
			}
		});
	}

	private void cancel() {
		ScheduledFuture<?> pending = this.timer;
		if (pending != null) {
			pending.cancel(false);
			this.timer = null;
		}
	}

	/**
	 * Sets the connection's timer, if none is pending, to check the head under way after
	 * {@code delayNanos}.
	 */
	private void arm(ChannelHandlerContext rawContext, long delayNanos) {
		if (this.timer == null) {
			this.timer = rawContext.executor().schedule(() -> check(rawContext), delayNanos, TimeUnit.NANOSECONDS);
		}
	}

	private void check(ChannelHandlerContext rawContext) {
		this.timer = null;
		// A head under way is always one that was awaited: a decoded request ends both.
		if (!this.headUnderWay || !rawContext.channel().isActive()
				|| rawContext.pipeline().get(NettyPipeline.HttpCodec) == null) {
			// Nothing to time (the next head's first byte sets the timer again), or the
			// connection speaks
			// something else now (an upgrade replaced the codec).
			return;
		}
		long left = this.headStartedAt + this.timeoutNanos - System.nanoTime();
		if (left > 0) {
			// A later head than the one the timer was set for.
			arm(rawContext, left);
			return;
		}
		if (this.responsesPending > 0) {
			// A response is being written (the late head is pipelined behind it): answer
			// once it is complete.
			this.expiredDuringResponse = true;
			return;
		}
		refuse(rawContext);
	}

	/**
	 * Answers 408 and closes; written in front of the codec, whose encoder has nothing
	 * under way.
	 */
	private static void refuse(ChannelHandlerContext rawContext) {
		rawContext.writeAndFlush(Unpooled.wrappedBuffer(TIMEOUT_RESPONSE)).addListener(ChannelFutureListener.CLOSE);
	}

	/**
	 * In front of the codec: notes a head's first byte, and sets the timer if none is
	 * pending.
	 */
	private final class Raw extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (awaitingHead && !headUnderWay && msg instanceof ByteBuf bytes && bytes.isReadable()) {
				headUnderWay = true;
				headStartedAt = System.nanoTime();
				arm(ctx, timeoutNanos);
			}
			ctx.fireChannelRead(msg);
		}

		@Override
		public void handlerAdded(ChannelHandlerContext ctx) {
			rawContext = ctx;
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			cancel();
			ctx.fireChannelInactive();
		}

		@Override
		public void handlerRemoved(ChannelHandlerContext ctx) {
			cancel();
		}

	}

	/**
	 * Behind the codec: a decoded head ends the timing; the end of its body lets the next
	 * bytes start a head.
	 */
	private final class Decoded extends ChannelDuplexHandler {

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (msg instanceof HttpRequest) {
				headUnderWay = false;
				awaitingHead = false;
				expiredDuringResponse = false;
				responsesPending++;
			}
			if (msg instanceof LastHttpContent) {
				awaitingHead = true;
			}
			ctx.fireChannelRead(msg);
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
			if (!(msg instanceof LastHttpContent) || responsesPending == 0) {
				ctx.write(msg, promise);
				return;
			}
			responsesPending--;
			ctx.write(msg, promise);
			ChannelHandlerContext raw = rawContext;
			if (responsesPending == 0 && expiredDuringResponse && awaitingHead && raw != null) {
				refuse(raw);
			}
		}

	}

}
