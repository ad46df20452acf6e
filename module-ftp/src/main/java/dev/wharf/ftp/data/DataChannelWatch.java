package dev.wharf.ftp.data;

import java.io.IOException;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import org.jspecify.annotations.Nullable;

/**
 * Watches one data connection for what Reactor Netty's streams do not tell apart: a TLS peer's
 * {@code close_notify} (without it, an encrypted upload may have been cut short), a connection that stalled
 * for longer than the data timeout, and a connection reset. Runs on the channel's event loop; the fields are
 * read from other threads once the channel is closed.
 */
final class DataChannelWatch extends ChannelInboundHandlerAdapter {

	static final String NAME = "wharf-ftp-watch";

	private volatile boolean closeNotifyReceived;

	private volatile @Nullable IOException failure;

	/**
	 * Starts reading for a TLS handshake: Reactor Netty reads only on demand, and a download never asks, but the
	 * handler reads on by itself once started until the handshake is done.
	 */
	@Override
	public void channelActive(ChannelHandlerContext ctx) throws Exception {
		if (ctx.pipeline().get(SslHandler.class) != null && !ctx.channel().config().isAutoRead()) {
			ctx.read();
		}
		super.channelActive(ctx);
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
		if (event instanceof SslCloseCompletionEvent closed && closed.isSuccess()) {
			this.closeNotifyReceived = true;
		}
		else if (event instanceof IdleStateEvent) {
			fail(new DataTimeoutException("The data connection made no progress for too long"));
			ctx.close();
			return;
		}
		super.userEventTriggered(ctx, event);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
		fail((cause instanceof IOException io) ? io : new IOException(cause.getMessage(), cause));
		super.exceptionCaught(ctx, cause);
	}

	void fail(IOException cause) {
		if (this.failure == null) {
			this.failure = cause;
		}
	}

	boolean closeNotifyReceived() {
		return this.closeNotifyReceived;
	}

	@Nullable IOException failure() {
		return this.failure;
	}

	/** The data connection was idle for longer than the data timeout. */
	static final class DataTimeoutException extends IOException {

		private static final long serialVersionUID = 1L;

		DataTimeoutException(String message) {
			super(message);
		}

	}

}
