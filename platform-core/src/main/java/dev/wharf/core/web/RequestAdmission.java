package dev.wharf.core.web;

import java.util.ArrayDeque;

import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Bounds how many connections of one HTTP server have a request being worked on at once
 * ({@code wharf.http.admission.max-requests}). A connection whose request arrives when
 * the bound is reached waits in line: its decoded request head is held in front of
 * Reactor Netty, which has therefore made nothing for it yet (its request and response
 * objects, Spring's exchange, the handler's subscribers, the storage call and its
 * buffers), and the connection is not read further. When a response is complete, its slot
 * goes to the connection that has waited longest, which then proceeds on its own event
 * loop. nginx bounds its work the same way, with its fixed workers; without a bound,
 * 1,000 concurrent requests hold 1,000 requests' memory at once, which a small heap
 * cannot.
 *
 * <p>
 * A connection holds its slot from its request's head until its last response part has
 * been written (requests pipelined behind it on the same connection pass with it), then
 * gives it back; its next request waits in line again, so that one busy keep-alive
 * connection cannot keep a slot from the others. Only the request head and what was read
 * with it are held; waiting never blocks an event loop. A waiting request has its whole
 * head, so the request head timeout is done with it; a connection that closes while
 * waiting leaves the line; Reactor Netty's idle timeout
 * ({@code server.netty.idle-timeout}) closes a connection that waits longer.
 *
 * <p>
 * One {@link RequestAdmission} per server, shared by its event loops (its line is guarded
 * by its own lock, held for a few field updates); one handler per connection, used on
 * that connection's event loop only.
 */
public final class RequestAdmission {

	/** The name of the handler in the pipeline. */
	public static final String NAME = "wharf.requestAdmission";

	private final int maxRequests;

	/** Connections holding a slot. Guarded by {@code this}. */
	private int active;

	/** Connections waiting for a slot, longest first. Guarded by {@code this}. */
	private final ArrayDeque<Gate> line = new ArrayDeque<>();

	private RequestAdmission(int maxRequests) {
		this.maxRequests = maxRequests;
	}

	/**
	 * Installs the bound on every HTTP/1.1 connection of a server, in front of Reactor
	 * Netty's request handling.
	 * @param server the server
	 * @param maxRequests the most connections with a request being worked on at once; 0
	 * leaves the server unchanged
	 * @return the server with the bound
	 */
	public static HttpServer install(HttpServer server, int maxRequests) {
		if (maxRequests <= 0) {
			return server;
		}
		RequestAdmission admission = new RequestAdmission(maxRequests);
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			ChannelPipeline pipeline = channel.pipeline();
			if (pipeline.get(NettyPipeline.HttpTrafficHandler) != null && pipeline.get(NAME) == null) {
				pipeline.addBefore(NettyPipeline.HttpTrafficHandler, NAME, admission.new Gate());
			}
		});
	}

	/**
	 * Takes a slot for a connection, or puts it in line.
	 * @return whether the connection got a slot now
	 */
	private synchronized boolean enter(Gate gate) {
		if (this.active < this.maxRequests) {
			this.active++;
			return true;
		}
		this.line.addLast(gate);
		return false;
	}

	/** Gives a slot back, handing it to the connection that has waited longest. */
	private void leave() {
		Gate next;
		synchronized (this) {
			next = this.line.pollFirst();
			if (next == null) {
				this.active--;
			}
		}
		if (next != null) {
			next.admit();
		}
	}

	/**
	 * Takes a connection out of the line.
	 * @return whether it was still waiting (otherwise a slot is on its way to it)
	 */
	private synchronized boolean withdraw(Gate gate) {
		return this.line.remove(gate);
	}

	/** One connection's place at the door. */
	private final class Gate extends ChannelDuplexHandler {

		/** Set before the connection reads, so before it can wait. */
		private @Nullable ChannelHandlerContext context;

		/** Whether this connection holds a slot. */
		private boolean holding;

		/** Whether this connection is in line for a slot. */
		private boolean waiting;

		/** Requests passed on whose last response part has not been written yet. */
		private int responsesPending;

		/** What was read while waiting, in order. */
		private final ArrayDeque<Object> held = new ArrayDeque<>(2);

		/** Whether the channel read by itself before it started waiting. */
		private boolean autoRead;

		/** Whether a read was asked for while waiting. */
		private boolean readWanted;

		@Override
		public void handlerAdded(ChannelHandlerContext ctx) {
			this.context = ctx;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (this.waiting) {
				this.held.addLast(msg);
				return;
			}
			if (msg instanceof HttpRequest) {
				if (!this.holding) {
					if (!enter(this)) {
						waitInLine(ctx, msg);
						return;
					}
					this.holding = true;
				}
				this.responsesPending++;
			}
			ctx.fireChannelRead(msg);
		}

		/** Holds a request and stops reading the connection until it gets a slot. */
		private void waitInLine(ChannelHandlerContext ctx, Object request) {
			this.waiting = true;
			// First: when the line is joined while held messages are being passed on,
			// the ones after this request are still held.
			this.held.addFirst(request);
			ChannelConfig config = ctx.channel().config();
			this.autoRead = config.isAutoRead();
			if (this.autoRead) {
				config.setAutoRead(false);
			}
		}

		@Override
		public void read(ChannelHandlerContext ctx) {
			if (this.waiting) {
				this.readWanted = true;
				return;
			}
			ctx.read();
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) {
			if (!this.waiting) {
				ctx.fireChannelReadComplete();
			}
		}

		/** A slot is this connection's: continues on its event loop. */
		void admit() {
			ChannelHandlerContext ctx = this.context;
			if (ctx == null) {
				leave();
				return;
			}
			ctx.executor().execute(() -> admitted(ctx));
		}

		private void admitted(ChannelHandlerContext ctx) {
			if (!this.waiting || !ctx.channel().isActive()) {
				// Closed meanwhile: the slot goes on to the next in line.
				this.waiting = false;
				discardHeld();
				leave();
				return;
			}
			this.waiting = false;
			this.holding = true;
			if (this.autoRead) {
				ctx.channel().config().setAutoRead(true);
			}
			// A response complete at once (a request answered without waiting for
			// anything) gives the slot back: a request held after it waits in line again.
			Object msg;
			while (!this.waiting && (msg = this.held.pollFirst()) != null) {
				channelRead(ctx, msg);
			}
			if (!this.waiting) {
				ctx.fireChannelReadComplete();
				if (this.readWanted) {
					this.readWanted = false;
					ctx.read();
				}
			}
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
			boolean last = ResponseEnds.endsResponse(msg);
			ctx.write(msg, promise);
			if (last && this.responsesPending > 0) {
				this.responsesPending--;
				if (this.responsesPending == 0 && this.holding) {
					this.holding = false;
					leave();
				}
			}
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

		/** Gives back what a closed connection holds: its slot or its place in line. */
		private void release() {
			if (this.holding) {
				this.holding = false;
				leave();
			}
			if (this.waiting && withdraw(this)) {
				// Never given a slot; one on its way is passed on by admitted().
				this.waiting = false;
				discardHeld();
			}
		}

		private void discardHeld() {
			Object msg;
			while ((msg = this.held.pollFirst()) != null) {
				ReferenceCountUtil.release(msg);
			}
		}

	}

}
