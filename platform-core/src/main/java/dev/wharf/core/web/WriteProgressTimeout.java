package dev.wharf.core.web;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.server.HttpServer;

/**
 * Closes a connection whose response stopped moving: bytes wait to be written to the
 * socket and none of them went out for the timeout, because the client stopped reading
 * (or its network is gone). Without it such a connection would hold what makes its
 * response for good: a zip's worker thread and slot, a file being read, a cache entry
 * being streamed. Reactor Netty's idle timeout watches a connection only between
 * requests, and Netty's write timeout would cut a large file sent to a slow client
 * whatever its progress.
 *
 * <p>
 * Progress is what nginx's {@code send_timeout} measures: the time between two writes to
 * the socket. The kernel takes more bytes only once a third or so of its send buffer (up
 * to a few MB) drained, so a client must take in that much within the timeout; a slow but
 * moving download is never cut. A response that takes long to make, with nothing waiting
 * to be written, is not this timeout's business either.
 *
 * <p>
 * One handler per connection, at the head of the pipeline, so it sees every write (TLS
 * records included). Nothing is scheduled per write: a write arms the connection's timer
 * if it is not armed, and each time it fires the timer samples the connection's outbound
 * buffer (the message at its head, how much of it went out, how many bytes wait) and arms
 * itself again while bytes wait; with nothing waiting it lapses until the next write. It
 * fires every quarter of the timeout, so a stalled connection is closed between one and
 * one and a quarter timeouts after its last progress. Everything runs on the connection's
 * event loop.
 */
public final class WriteProgressTimeout extends ChannelDuplexHandler {

	/** The handler's name in the pipeline. */
	public static final String NAME = "wharf.writeProgressTimeout";

	private final long timeoutNanos;

	private final Runnable onClose;

	private @Nullable ScheduledFuture<?> timer;

	/**
	 * The outbound buffer as last sampled: its head message, how much of it went out, the
	 * bytes waiting.
	 */
	private @Nullable Object head;

	private long headProgress;

	private long pendingBytes;

	/** When the sample last changed ({@link System#nanoTime()}). */
	private long movedAt;

	private WriteProgressTimeout(Duration timeout, Runnable onClose) {
		this.timeoutNanos = timeout.toNanos();
		this.onClose = onClose;
	}

	/**
	 * Installs the timeout on every connection of a server.
	 * @param server the server
	 * @param timeout the most time bytes may wait to be written without any going out;
	 * zero leaves the server unchanged
	 * @param onClose called, on the event loop, each time a connection is closed for this
	 * reason (metrics)
	 * @return the server with the timeout
	 */
	public static HttpServer install(HttpServer server, Duration timeout, Runnable onClose) {
		if (timeout.isZero()) {
			return server;
		}
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			// Only a connection writes to a socket; an HTTP/2 stream has no outbound
			// buffer of its own.
			if (channel.unsafe().outboundBuffer() != null && channel.pipeline().get(NAME) == null) {
				channel.pipeline().addFirst(NAME, new WriteProgressTimeout(timeout, onClose));
			}
		});
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		ctx.write(msg, promise);
		if (this.timer == null) {
			sample(ctx.channel().unsafe().outboundBuffer());
			this.movedAt = System.nanoTime();
			arm(ctx);
		}
	}

	private void arm(ChannelHandlerContext ctx) {
		this.timer = ctx.executor().schedule(() -> check(ctx), this.timeoutNanos / 4, TimeUnit.NANOSECONDS);
	}

	/**
	 * Notes the outbound buffer's state; says whether it differs from the previous one.
	 */
	private boolean sample(@Nullable ChannelOutboundBuffer buffer) {
		Object current = (buffer != null) ? buffer.current() : null;
		long progress = (buffer != null) ? buffer.currentProgress() : 0;
		long pending = (buffer != null) ? buffer.totalPendingWriteBytes() : 0;
		boolean changed = current != this.head || progress != this.headProgress || pending != this.pendingBytes;
		this.head = current;
		this.headProgress = progress;
		this.pendingBytes = pending;
		return changed;
	}

	private void check(ChannelHandlerContext ctx) {
		this.timer = null;
		Channel channel = ctx.channel();
		if (!channel.isActive()) {
			return;
		}
		long now = System.nanoTime();
		if (sample(channel.unsafe().outboundBuffer())) {
			this.movedAt = now;
		}
		if (this.head == null && this.pendingBytes == 0) {
			// Nothing waits: the next write sets the timer again.
			return;
		}
		if (now - this.movedAt >= this.timeoutNanos) {
			this.onClose.run();
			ctx.close();
			return;
		}
		arm(ctx);
	}

	private void cancel() {
		ScheduledFuture<?> pending = this.timer;
		if (pending != null) {
			pending.cancel(false);
			this.timer = null;
		}
		this.head = null;
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		cancel();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		cancel();
	}

}
