package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

import dev.wharf.staticfiles.resolve.SharedChannel;
import dev.wharf.staticfiles.resolve.StoredFile;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.ssl.SslHandler;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Sends local files with sendfile(2), as nginx does: through the cached file's shared
 * open channel when there is one (no open, fstat or close per response), with
 * {@code TCP_CORK} around the headers and the file so they leave in full segments rather
 * than a small header packet first. Where the kernel cannot write the file to the socket
 * (TLS, HTTP/2) Reactor Netty's own chunked transfer is used.
 */
final class FileSender {

	/**
	 * Epoll's TCP_CORK, looked up by name so the class compiles without the native
	 * transport.
	 */
	private static final ChannelOption<Boolean> TCP_CORK = ChannelOption
		.valueOf("io.netty.channel.epoll.EpollChannelOption#TCP_CORK");

	private FileSender() {
	}

	/**
	 * Opens a local file for a response, checking it is still the version described.
	 * Called before anything is sent, so that a stale description can be resolved again.
	 * @param response the response
	 * @param source the file
	 * @return the opened file, or {@code null} where zero-copy is impossible (the caller
	 * then uses {@link #send} with {@code null}, which lets Reactor Netty open it)
	 * @throws StaleFileException if the file is gone or its length changed
	 */
	static @Nullable Opened open(HttpServerResponse response, StoredFile source) {
		Channel channel = channel(response);
		if (channel == null || !plain(channel)) {
			return null;
		}
		Path local = Objects.requireNonNull(source.localFile());
		try {
			SharedChannel shared = source.acquireChannel();
			if (shared != null) {
				return new Opened(channel, shared.channel(), shared);
			}
			// open(2) and fstat(2) of a local file on the event loop, as nginx and
			// Reactor Netty's sendFile do.
			return new Opened(channel, SharedChannel.openChecked(local, source.size()), null);
		}
		catch (NoSuchFileException | SharedChannel.FileChangedException ex) {
			throw new StaleFileException();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends part of a file as the body; the response's headers must be set.
	 * @param response the response
	 * @param opened what {@link #open} returned
	 * @param local the file, used when {@code opened} is {@code null}
	 * @param offset first byte
	 * @param length how many bytes
	 * @return completes when sent; the file is released in any case
	 */
	static Publisher<Void> send(HttpServerResponse response, @Nullable Opened opened, Path local, long offset,
			long length) {
		if (opened == null) {
			return response.sendFile(local, offset, length);
		}
		DefaultFileRegion region = (opened.shared() != null) ? new SharedRegion(opened.shared(), offset, length)
				: new DefaultFileRegion(opened.file(), offset, length);
		Channel channel = opened.connection();
		boolean corked = cork(channel, true);
		Mono<Void> sent = Mono.from(response.sendObject(region));
		return corked ? sent.doFinally(signal -> cork(channel, false)) : sent;
	}

	/**
	 * Whether bytes written to the channel go to the socket as they are: no TLS, not an
	 * HTTP/2 stream.
	 */
	static boolean plain(Channel channel) {
		Channel parent = channel.parent();
		boolean http2Stream = parent != null && parent.pipeline().get(NettyPipeline.H2MultiplexHandler) != null;
		return !http2Stream && channel.pipeline().get(SslHandler.class) == null;
	}

	static boolean cork(Channel channel, boolean on) {
		try {
			return channel.isActive() && channel.config().setOption(TCP_CORK, on);
		}
		catch (RuntimeException ex) {
			// Not an epoll channel, or closed meanwhile: sending works the same, in more
			// packets.
			return false;
		}
	}

	private static @Nullable Channel channel(HttpServerResponse response) {
		Channel[] channel = { null };
		response.withConnection(connection -> channel[0] = connection.channel());
		return channel[0];
	}

	/**
	 * A file opened for one response.
	 *
	 * @param connection the connection's channel
	 * @param file the open file
	 * @param shared the shared channel the file belongs to, or {@code null} if the
	 * response owns it
	 */
	record Opened(Channel connection, FileChannel file, @Nullable SharedChannel shared) {
	}

}
