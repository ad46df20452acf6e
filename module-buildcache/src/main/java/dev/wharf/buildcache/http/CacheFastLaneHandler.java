package dev.wharf.buildcache.http;

import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.web.ResponseEnds;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import org.jspecify.annotations.Nullable;
import reactor.netty.NettyPipeline;

/**
 * One connection's entrance to the {@link CacheFastLane}, between the HTTP codec and
 * Reactor Netty. Responses on a keep-alive or pipelined connection always leave in
 * request order: it takes a request only when none it passed on to Reactor Netty is still
 * unanswered, and while its own answer is under way (a password being checked, a storage
 * read) it holds back whatever the client sends next, and goes on with it once the answer
 * is written. After answering, it asks for the next read, as Reactor Netty does after its
 * own responses.
 *
 * <p>
 * It also keeps the idle timeout ({@code server.netty.idle-timeout}) of a connection
 * whose last request it answered. Reactor Netty takes its own idle timeout handler out of
 * the pipeline only around the requests it sees; left in place, it would also time the
 * lane's answers, and close a client that stops reading a big entry on its own clock
 * instead of the write-progress timeout (which counts such connections). So the lane
 * takes it out when it takes a request, and closes the connection itself once nothing was
 * read or answered for that long, with one timer per connection that is set again for the
 * time left when it fires (not set and cancelled per request); while a request passed on
 * is unanswered, Reactor Netty's is back in charge.
 *
 * <p>
 * One instance per connection; its state is used on the connection's event loop only.
 */
final class CacheFastLaneHandler extends ChannelDuplexHandler {

	/** The handler's name in the pipeline. */
	static final String NAME = "wharf.buildcacheFastLane";

	private final CacheFastLane lane;

	/** The idle timeout; 0 for none. */
	private final long idleTimeoutNanos;

	/**
	 * Requests passed on to Reactor Netty whose last response part has not been written
	 * yet.
	 */
	private int passedOn;

	/**
	 * Whether the rest of a request this handler took (its empty last part) is still to
	 * come.
	 */
	private boolean skippingRest;

	/** Whether an answer of this handler's is under way. */
	private boolean answering;

	/** What arrived while an answer was under way, in order. */
	private @Nullable ArrayDeque<Object> held;

	/**
	 * Whether Reactor Netty's idle timeout handler may be in the pipeline: it is there
	 * from the start, and put back after each response to a request passed on.
	 */
	private boolean reactorIdleTimeout = true;

	/** When something was last read or answered ({@link System#nanoTime()}). */
	private long lastActivity;

	private @Nullable ScheduledFuture<?> idleTimer;

	CacheFastLaneHandler(CacheFastLane lane, long idleTimeoutNanos) {
		this.lane = lane;
		this.idleTimeoutNanos = idleTimeoutNanos;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.skippingRest && msg instanceof HttpContent) {
			if (msg instanceof LastHttpContent) {
				this.skippingRest = false;
				if (!this.answering) {
					ctx.read();
				}
			}
			ReferenceCountUtil.release(msg);
			return;
		}
		if (this.answering) {
			ArrayDeque<Object> queue = this.held;
			if (queue == null) {
				queue = new ArrayDeque<>(4);
				this.held = queue;
			}
			queue.add(msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			String key = (this.passedOn == 0) ? this.lane.key(request) : null;
			if (key != null) {
				take(ctx, request, key, msg instanceof LastHttpContent);
				ReferenceCountUtil.release(msg);
				return;
			}
			this.passedOn++;
			this.reactorIdleTimeout = true;
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		this.lastActivity = System.nanoTime();
		ctx.fireChannelReadComplete();
	}

	private void take(ChannelHandlerContext ctx, HttpRequest request, String key, boolean whole) {
		this.answering = true;
		this.skippingRest = !whole;
		if (this.reactorIdleTimeout) {
			this.reactorIdleTimeout = false;
			ChannelHandler idle = ctx.pipeline().get(NettyPipeline.IdleTimeoutHandler);
			if (idle != null) {
				ctx.pipeline().remove(idle);
			}
		}
		this.lane.answer(ctx, request, key)
			.subscribe(null, error -> onLoop(ctx, () -> answered(ctx, false)),
					() -> onLoop(ctx, () -> answered(ctx, true)));
	}

	/** Runs on the connection's event loop: at once when already there. */
	private static void onLoop(ChannelHandlerContext ctx, Runnable step) {
		EventExecutor loop = ctx.executor();
		if (loop.inEventLoop()) {
			step.run();
		}
		else {
			loop.execute(step);
		}
	}

	/**
	 * Goes on after an answer: with what was held back, else with the next read.
	 */
	private void answered(ChannelHandlerContext ctx, boolean completed) {
		this.answering = false;
		this.lastActivity = System.nanoTime();
		if (this.idleTimer == null && this.idleTimeoutNanos > 0) {
			armIdleTimer(ctx, this.idleTimeoutNanos);
		}
		if (!completed) {
			// The response could not be finished: as on the regular route, the client
			// sees the connection end rather than take a short entry for a whole one.
			release();
			ctx.close();
			return;
		}
		ArrayDeque<Object> queue = this.held;
		if (queue == null || queue.isEmpty()) {
			if (!this.skippingRest) {
				ctx.read();
			}
			return;
		}
		while (!this.answering && !queue.isEmpty()) {
			channelRead(ctx, queue.poll());
		}
	}

	private void armIdleTimer(ChannelHandlerContext ctx, long delayNanos) {
		this.idleTimer = ctx.executor().schedule(() -> checkIdle(ctx), delayNanos, TimeUnit.NANOSECONDS);
	}

	private void checkIdle(ChannelHandlerContext ctx) {
		this.idleTimer = null;
		if (!ctx.channel().isActive() || this.answering || this.passedOn > 0) {
			// Busy, or Reactor Netty's timeout is back; the next answer sets the timer
			// again.
			return;
		}
		long left = this.lastActivity + this.idleTimeoutNanos - System.nanoTime();
		if (left > 0) {
			armIdleTimer(ctx, left);
		}
		else {
			ctx.close();
		}
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		// Reactor Netty's responses pass here on their way out (this handler's own do
		// not).
		if (this.passedOn > 0 && ResponseEnds.endsResponse(msg)) {
			this.passedOn--;
			this.lastActivity = System.nanoTime();
		}
		ctx.write(msg, promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		release();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		release();
	}

	private void release() {
		ScheduledFuture<?> timer = this.idleTimer;
		if (timer != null) {
			timer.cancel(false);
			this.idleTimer = null;
		}
		ArrayDeque<Object> queue = this.held;
		if (queue != null) {
			Object msg;
			while ((msg = queue.poll()) != null) {
				ReferenceCountUtil.release(msg);
			}
		}
	}

}
