package dev.wharf.buildcache.http;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.wharf.buildcache.store.CacheEntry;
import dev.wharf.buildcache.store.HeldEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One cache request and its response, whichever way it came: through Reactor Netty's
 * routes ({@link RoutedExchange}) or straight off the connection ({@link DirectExchange},
 * see {@link CacheFastLane}). The answers are written here, once, so both ways send the
 * same bytes; subclasses only say how a response goes out.
 *
 * <p>
 * One instance per request; not thread-safe (a request's steps run one after another).
 */
abstract sealed class CacheExchange permits RoutedExchange, DirectExchange {

	private static final String TEXT = "text/plain;charset=UTF-8";

	private static final String OCTET_STREAM = "application/octet-stream";

	/** Entries up to this size are sent whole, in one message. */
	static final long WHOLE = 64 * 1024;

	private final HttpMethod method;

	CacheExchange(HttpMethod method) {
		this.method = method;
	}

	/** The request's method. */
	final HttpMethod method() {
		return this.method;
	}

	/** The request's headers. */
	abstract HttpHeaders requestHeaders();

	/** The client's address, or {@code null} if unknown. */
	abstract @Nullable InetSocketAddress remoteAddress();

	/** The client's address as text, or {@code null} if unknown. */
	@Nullable String clientAddress() {
		InetSocketAddress remote = remoteAddress();
		if (remote == null) {
			return null;
		}
		return (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
	}

	/** The connection, or {@code null} if unknown. */
	abstract @Nullable Channel channel();

	/**
	 * The request body, each buffer retained for the subscriber (who releases it).
	 * @throws IllegalStateException if the request's body is not this exchange's to read
	 */
	abstract Flux<ByteBuf> body();

	/** Sets a response header, replacing any of that name. */
	abstract void header(CharSequence name, String value);

	/** Whether the response's status and headers have gone out. */
	abstract boolean hasSentHeaders();

	/** Sends the status and headers, without a body. */
	abstract Mono<Void> sendHead(HttpResponseStatus status);

	/** Sends the status, headers and the whole body in one message, which owns it. */
	abstract Mono<Void> sendWhole(HttpResponseStatus status, ByteBuf body);

	/** Sends the status and headers, then the body as it comes. */
	abstract Mono<Void> sendStream(HttpResponseStatus status, Flux<ByteBuf> body);

	/** Whether only the head of the response is to be sent. */
	final boolean isHead() {
		return HttpMethod.HEAD.equals(this.method);
	}

	/**
	 * As Http10KeepAliveFilter does for WebFlux: clients that ask for keep-alive are told
	 * that the connection stays.
	 */
	final void confirmKeepAlive() {
		String connection = requestHeaders().get(HttpHeaderNames.CONNECTION);
		if (connection != null && connection.equalsIgnoreCase("keep-alive")) {
			header(HttpHeaderNames.CONNECTION, "keep-alive");
		}
	}

	final Mono<Void> entry(CacheEntry entry) {
		header(HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM);
		header(HttpHeaderNames.CONTENT_LENGTH, Long.toString(entry.length()));
		if (isHead()) {
			return sendHead(HttpResponseStatus.OK);
		}
		if (entry.length() <= WHOLE) {
			// Small entries go out as one message with their headers (one write, one
			// flush), and a storage error while reading them still gets a status. Their
			// buffers are sent as they are, not copied into one: a copy was about 3 % of
			// the CPU time of a 128-byte GET.
			return entry.content()
				.collectList()
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
				.flatMap(buffers -> buffers.isEmpty() ? sendHead(HttpResponseStatus.OK)
						: sendWhole(HttpResponseStatus.OK, whole(buffers)));
		}
		return sendStream(HttpResponseStatus.OK, entry.content().map(NettyDataBufferFactory::toByteBuf));
	}

	/**
	 * Sends an entry found at once: the same answer as {@link #entry(CacheEntry)} gives
	 * an entry sent whole, its bytes wrapped as they are (neither copied nor joined).
	 */
	final Mono<Void> entry(HeldEntry entry) {
		header(HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM);
		header(HttpHeaderNames.CONTENT_LENGTH, Long.toString(entry.length()));
		List<ByteBuffer> content = entry.content();
		if (isHead() || content.isEmpty()) {
			return sendHead(HttpResponseStatus.OK);
		}
		return sendWhole(HttpResponseStatus.OK, (content.size() == 1) ? Unpooled.wrappedBuffer(content.get(0))
				: Unpooled.wrappedBuffer(content.toArray(ByteBuffer[]::new)));
	}

	/**
	 * One message of an entry's buffers, which owns them: releasing it releases them.
	 */
	private static ByteBuf whole(List<DataBuffer> buffers) {
		if (buffers.size() == 1) {
			return byteBuf(buffers.get(0));
		}
		ByteBuf[] parts = new ByteBuf[buffers.size()];
		for (int i = 0; i < parts.length; i++) {
			parts[i] = byteBuf(buffers.get(i));
		}
		return Unpooled.wrappedBuffer(parts);
	}

	/**
	 * A buffer as Netty's: the same one, or a copy of one that is not Netty's (whose
	 * original is released).
	 */
	private static ByteBuf byteBuf(DataBuffer buffer) {
		ByteBuf netty = NettyDataBufferFactory.toByteBuf(buffer);
		if (!(buffer instanceof NettyDataBuffer)) {
			DataBufferUtils.release(buffer);
		}
		return netty;
	}

	final Mono<Void> empty(HttpResponseStatus status) {
		header(HttpHeaderNames.CONTENT_LENGTH, "0");
		return sendHead(status);
	}

	final Mono<Void> text(HttpResponseStatus status, @Nullable String message) {
		return bytes(status, TEXT, (message != null) ? message + "\n" : "\n");
	}

	final Mono<Void> bytes(HttpResponseStatus status, String type, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		header(HttpHeaderNames.CONTENT_TYPE, type);
		header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length));
		if (isHead()) {
			return sendHead(status);
		}
		return sendWhole(status, Unpooled.wrappedBuffer(bytes));
	}

}
