package dev.wharf.ftp.data;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.support.BlockingOpen;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.Connection;

/**
 * One open data connection of a session: sends a download, receives an upload, then
 * closes. The client's end of stream is the end of an upload (FTP stream mode), so an
 * upload that ends with a reset, a stall past the data timeout or, under TLS, without the
 * peer's {@code close_notify} fails instead of completing.
 *
 * <p>
 * All I/O is non-blocking on the data event loops; opening a file for a zero-copy send
 * runs on a bounded scheduler. Methods may be called from any thread; {@link #send},
 * {@link #sendFile} and {@link #receive} are each used at most once, one of them per
 * connection.
 */
public final class DataChannel {

	/**
	 * How long a transfer may still finish after its connection closed (its last writes'
	 * futures).
	 */
	static final Duration CLOSED_GRACE = Duration.ofSeconds(1);

	private final Connection connection;

	private final DataChannelWatch watch;

	private final boolean secure;

	private final Scheduler files;

	private final EarlyReceiver inbound;

	private final ReceiveBudget budget;

	// Taken while the SslHandler is still in the pipeline (Netty removes handlers once
	// the channel is closed).
	private final @Nullable Future<Channel> handshake;

	/**
	 * Wraps a connection as soon as it is open, on its event loop, before it can receive
	 * anything.
	 * @param connection the connection
	 * @param secure whether it is encrypted
	 * @param files where files are opened for zero-copy sends
	 * @param budget sizes the reads of uploads
	 */
	DataChannel(Connection connection, boolean secure, Scheduler files, ReceiveBudget budget) {
		this.budget = budget;
		this.connection = connection;
		this.watch = connection.channel().pipeline().get(DataChannelWatch.class);
		SslHandler ssl = connection.channel().pipeline().get(SslHandler.class);
		this.handshake = (ssl != null) ? ssl.handshakeFuture() : null;
		this.secure = secure;
		this.files = files;
		this.inbound = new EarlyReceiver(connection.channel().config(), budget, !secure);
		connection.inbound().receive().subscribe(this.inbound);
		// The same for uploads: a receive still open CLOSED_GRACE after its connection
		// closed is ended (the checks
		// after it then report why), as a spoiled handshake's upload otherwise waited for
		// the control connection.
		closedAWhile().subscribe(ignored -> this.inbound.onComplete());
	}

	/** Whether the connection is encrypted. */
	public boolean isSecure() {
		return this.secure;
	}

	/**
	 * Sends content to the client.
	 * @param content the bytes; each buffer is released once sent, or on failure or
	 * cancellation
	 * @return the number of bytes sent, once all were handed to the network; fails if the
	 * connection broke
	 */
	public Mono<Long> send(Flux<DataBuffer> content) {
		return Mono.defer(() -> {
			if (this.connection.isDisposed()) {
				return Mono.error(gone());
			}
			AtomicLong sent = new AtomicLong();
			Flux<ByteBuf> buffers = content.map(buffer -> {
				sent.addAndGet(buffer.readableByteCount());
				return NettyDataBufferFactory.toByteBuf(buffer);
			});
			return untilClosed(handshaken().then(Mono.defer(() -> {
				TransferInterruptedException failure = failure();
				return (failure != null) ? Mono.<Long>error(failure)
						: this.connection.outbound().send(buffers).then().then(checked(sent));
			})));
		}).onErrorMap(DataChannel::interrupted);
	}

	/**
	 * Completes once the TLS handshake is over, whether it succeeded or not
	 * ({@link #failure()} tells), at once without TLS. A send waits for it because a
	 * transfer with nothing to send (an empty listing or file) otherwise ended before the
	 * client's handshake did: the connection was torn down mid-handshake
	 * ({@code user_canceled}) and the client got {@code 426}, every time for Python's
	 * {@code FTP_TLS} and sometimes for curl. Bounded by the handler's handshake timeout
	 * (the data timeout); a closed connection ends the handshake at once. It never fails:
	 * a failure signalled after an {@code ABOR} cancelled the wait would be dropped, and
	 * logged as an error.
	 */
	private Mono<Void> handshaken() {
		Future<Channel> handshake = this.handshake;
		if (handshake == null || handshake.isDone()) {
			return Mono.empty();
		}
		return Mono.create(sink -> handshake.addListener(done -> sink.success()));
	}

	/**
	 * Network failures become {@link TransferInterruptedException}; storage failures stay
	 * what they are.
	 */
	private static Throwable interrupted(Throwable error) {
		if (error instanceof StorageException || TransferInterruptedException.in(error) != null) {
			return error;
		}
		return new TransferInterruptedException("The data connection failed: " + error.getMessage(), error);
	}

	/**
	 * Sends part of a local file without copying it through Java (the kernel's
	 * {@code sendfile}). Only for connections that are not encrypted.
	 * @param file the file
	 * @param offset the first byte to send
	 * @return the number of bytes sent
	 */
	public Mono<Long> sendFile(Path file, long offset) {
		if (this.secure) {
			return Mono.error(new IllegalStateException("Zero-copy cannot go through TLS"));
		}
		if (this.connection.isDisposed()) {
			return Mono.error(gone());
		}
		return Mono.usingWhen(
				BlockingOpen.open(() -> FileChannel.open(file, StandardOpenOption.READ), DataChannel::closeQuietly,
						this.files),
				channel -> Mono.fromCallable(channel::size).subscribeOn(this.files).flatMap(size -> {
					long count = Math.max(0, size - offset);
					if (count == 0) {
						return Mono.just(0L);
					}
					// The region does not own the channel: usingWhen closes it once the
					// send is done.
					DefaultFileRegion region = new DefaultFileRegion(channel, offset, count);
					region.retain();
					return untilClosed(
							this.connection.outbound().sendObject(region).then().then(checked(new AtomicLong(count))))
						.onErrorMap(DataChannel::interrupted)
						.doFinally(signal -> region.release());
				}), channel -> close(channel), (channel, error) -> close(channel), channel -> close(channel));
	}

	private Mono<Void> close(FileChannel channel) {
		return Mono.<Void>fromRunnable(() -> closeQuietly(channel)).subscribeOn(this.files);
	}

	private static void closeQuietly(FileChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			// Read-only: nothing to lose.
		}
	}

	/**
	 * Receives an upload until the client closes the connection.
	 * @param buffers wraps the received bytes
	 * @return the bytes; the subscriber releases each buffer; fails if the connection was
	 * reset, stalled, or (under TLS) ended without {@code close_notify}
	 */
	public Flux<DataBuffer> receive(NettyDataBufferFactory buffers) {
		return this.inbound.flux()
			// Its last buffers are on their way back: waiting uploads may read.
			.doFinally(signal -> this.budget.wake())
			.<DataBuffer>map(buffers::wrap)
			// After close_notify the encrypted stream is known to be complete: a reset
			// that follows ends it, no more.
			.onErrorResume(error -> this.secure && this.watch.closeNotifyReceived(), error -> Mono.empty())
			.concatWith(Mono.defer(() -> {
				TransferInterruptedException failure = failure();
				if (failure != null) {
					return Mono.error(failure);
				}
				if (this.secure && !this.watch.closeNotifyReceived()) {
					return Mono.error(new TransferInterruptedException(
							"The TLS data connection ended without close_notify: the upload may be truncated", null));
				}
				return Mono.empty();
			}))
			.onErrorMap(DataChannel::interrupted);
	}

	/** A buffer factory on this connection's allocator. */
	public NettyDataBufferFactory bufferFactory() {
		return new NettyDataBufferFactory(this.connection.outbound().alloc());
	}

	/**
	 * Ends a send once its connection is gone. Reactor Netty's send fails when the
	 * channel closes under it, but when a TLS client gave up mid-handshake just as a
	 * download began, the send neither completed nor failed (its source was cancelled
	 * before Reactor Netty signalled anything downstream) and the client waited for the
	 * final reply for ever: FtpsTests' spoiled handshakes hung about once in a hundred
	 * downloads and listings. A send that is still running {@link #CLOSED_GRACE} after
	 * the connection closed has failed.
	 */
	private Mono<Long> untilClosed(Mono<Long> sending) {
		return sending.or(closedAWhile().then(Mono.error(this::gone)));
	}

	/** Emits {@link #CLOSED_GRACE} after the connection closed. */
	private Mono<Long> closedAWhile() {
		return this.connection.onDispose().onErrorComplete().then(Mono.delay(CLOSED_GRACE));
	}

	/**
	 * Why a transfer over a connection that closed cannot complete: what broke it (such
	 * as a failed TLS handshake), or the close itself. Sends check it first, because
	 * Reactor Netty's operations go with the channel's pipeline: a send on a closed
	 * connection failed with a NullPointerException ("reactiveBridge is not installed"),
	 * answered with 451 instead of 426.
	 */
	private TransferInterruptedException gone() {
		TransferInterruptedException failure = failure();
		return (failure != null) ? failure
				: new TransferInterruptedException("The data connection closed before the transfer completed", null);
	}

	private Mono<Long> checked(AtomicLong sent) {
		return Mono.defer(() -> {
			TransferInterruptedException failure = failure();
			return (failure != null) ? Mono.error(failure) : Mono.just(sent.get());
		});
	}

	/**
	 * What broke the connection, if anything. Under TLS, a handshake that did not succeed
	 * is a failure even when Netty reported nothing: a client that closed its socket
	 * mid-handshake got no failed {@code SslHandshakeCompletionEvent} to the watch, and
	 * the bytes written for a download, never encrypted nor sent, counted as sent (the
	 * transfer ended in {@code 226}).
	 */
	private @Nullable TransferInterruptedException failure() {
		TransferInterruptedException failure = this.watch.failure();
		if (failure != null || this.handshake == null || this.handshake.isSuccess()) {
			return failure;
		}
		Throwable cause = this.handshake.cause();
		return new TransferInterruptedException(
				"The TLS handshake did not complete" + ((cause != null) ? ": " + cause.getMessage() : ""), cause);
	}

	/**
	 * Closes the connection after what was sent (under TLS, after sending
	 * {@code close_notify}).
	 * @return completes when the connection is closed
	 */
	public Mono<Void> close() {
		return Mono.defer(() -> {
			this.inbound.cancel();
			this.connection.dispose();
			return this.connection.onDispose();
		});
	}

	/**
	 * Closes the connection at once, such as for {@code ABOR}; safe to call more than
	 * once.
	 */
	public void abort() {
		this.watch.fail(new TransferInterruptedException("Transfer aborted", null));
		this.inbound.cancel();
		this.connection.dispose();
	}

	/** Whether the connection is closed. */
	public boolean isClosed() {
		return this.connection.isDisposed();
	}

}
