package dev.wharf.staticfiles.server;

import dev.wharf.core.web.ResponseEnds;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * One connection's entrance to the {@link FastLane}, between the HTTP codec and Reactor
 * Netty. It keeps count of the requests it passed on whose responses are not finished,
 * and answers a request itself only when that count is zero, so responses on a keep-alive
 * or pipelined connection always leave in request order. After answering, it asks for the
 * next read, as Reactor Netty does after its own responses.
 *
 * <p>
 * One instance per connection; used on its event loop only.
 */
final class FastLaneHandler extends ChannelDuplexHandler {

	/** The handler's name in the pipeline. */
	static final String NAME = "wharf.staticFastLane";

	private final FastLane lane;

	/**
	 * Requests passed on to Reactor Netty whose last response part has not been written
	 * yet.
	 */
	private int passedOn;

	/**
	 * Whether the rest of a request this handler answered (its empty last part) is still
	 * to come.
	 */
	private boolean skippingRest;

	FastLaneHandler(FastLane lane) {
		this.lane = lane;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.skippingRest && msg instanceof HttpContent) {
			if (msg instanceof LastHttpContent) {
				this.skippingRest = false;
				ctx.read();
			}
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			if (this.passedOn == 0 && this.lane.answer(ctx, request)) {
				if (msg instanceof LastHttpContent) {
					ctx.read();
				}
				else {
					this.skippingRest = true;
				}
				ReferenceCountUtil.release(msg);
				return;
			}
			this.passedOn++;
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		// Reactor Netty's responses pass here on their way out (this handler's own do
		// not).
		if (this.passedOn > 0 && ResponseEnds.endsResponse(msg)) {
			this.passedOn--;
		}
		ctx.write(msg, promise);
	}

}
