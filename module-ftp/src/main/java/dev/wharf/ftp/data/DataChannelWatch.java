package dev.wharf.ftp.data;

import dev.wharf.core.concurrent.Disconnects;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Watches one data connection for what Reactor Netty's streams do not tell apart: a TLS
 * peer's {@code close_notify} (without it, an encrypted upload may have been cut short),
 * a connection that stalled for longer than the data timeout, and a connection reset.
 * Runs on the channel's event loop; the fields are read from other threads once the
 * channel is closed.
 */
final class DataChannelWatch extends ChannelInboundHandlerAdapter {

	private static final Log logger = LogFactory.getLog(DataChannelWatch.class);

	static final String NAME = "wharf-ftp-watch";

	private volatile boolean closeNotifyReceived;

	private volatile @Nullable TransferInterruptedException failure;

	/**
	 * Starts reading for a TLS handshake: Reactor Netty reads only on demand, and a
	 * download never asks, but the handler reads on by itself once started until the
	 * handshake is done.
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
		else if (event instanceof SslHandshakeCompletionEvent handshake && !handshake.isSuccess()) {
			// Not always followed by exceptionCaught: when the handshake failed before
			// the download began, the
			// channel was closed quietly and the transfer "succeeded" with 226 though the
			// client got nothing.
			fail(new TransferInterruptedException("The TLS handshake failed: " + handshake.cause().getMessage(),
					handshake.cause()));
		}
		else if (event instanceof IdleStateEvent) {
			fail(new TransferInterruptedException("The data connection made no progress for too long", null));
			ctx.close();
			return;
		}
		super.userEventTriggered(ctx, event);
	}

	/**
	 * Records a failure, except after the peer's {@code close_notify}: the TLS stream was
	 * then complete, and a reset that follows is a client closing with unread data (such
	 * as TLS 1.3 session tickets it never asked for). A client going away
	 * ({@link Disconnects#isOrdinary}) closes the connection here with one line at DEBUG:
	 * the transfer learns of it from {@link #failure()}. Passed on, it reached Reactor
	 * Netty after the transfer had ended, which logged a warning for every data
	 * connection a client reset or whose TLS handshake it refused.
	 */
	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
		if (!this.closeNotifyReceived) {
			fail(new TransferInterruptedException("The data connection failed: " + cause.getMessage(), cause));
		}
		if (Disconnects.isOrdinary(cause)) {
			if (logger.isDebugEnabled()) {
				logger.debug("FTP data connection with " + ctx.channel().remoteAddress() + " ended: "
						+ Disconnects.describe(cause));
			}
			ctx.close();
			return;
		}
		super.exceptionCaught(ctx, cause);
	}

	void fail(TransferInterruptedException cause) {
		if (this.failure == null) {
			this.failure = cause;
		}
	}

	boolean closeNotifyReceived() {
		return this.closeNotifyReceived;
	}

	@Nullable TransferInterruptedException failure() {
		return this.failure;
	}

}
