package dev.wharf.staticfiles.http;

import java.util.zip.Deflater;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.ZlibCodecFactory;
import io.netty.handler.codec.compression.ZlibWrapper;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * gzip (RFC 1952) for on-the-fly compression: of a whole small file, once, for the cache;
 * and of a stream, chunk by chunk, for files too large to cache. The framing and the
 * deflating are Netty's zlib encoder in gzip mode ({@link ZlibCodecFactory}), driven
 * through an {@link EmbeddedChannel} as Netty's own {@code HttpContentCompressor} drives
 * it. The encoder flushes after every chunk it is given, so what has been read from the
 * storage goes out at once, for a few bytes more per chunk than one unflushed stream.
 *
 * <p>
 * Why not {@code HttpContentCompressor} itself: it sits in the connection's pipeline and
 * decides per response from the headers, after the static server has already chosen the
 * representation. The static server's rules need that choice first: a precompressed
 * sibling before gzip on the fly, only compressible types of at least the site's minimum
 * size, never for a {@code Range} request, a weak entity tag and
 * {@code Vary: Accept-Encoding} on the compressed form, and a cached file compressed
 * once, not per response.
 *
 * <p>
 * Stateless; safe for concurrent use. A stream's encoder is used by one subscriber at a
 * time (Reactor's signals to one subscriber never overlap).
 */
public final class Gzip {

	/** Level for streams: fast, since it is paid on every response. */
	private static final int STREAM_LEVEL = 5;

	private Gzip() {
	}

	/**
	 * Compresses bytes at the best level (a cached file is compressed once).
	 * @param data the bytes
	 * @return the gzip stream
	 */
	public static byte[] compress(byte[] data) {
		EmbeddedChannel encoder = encoder(Deflater.BEST_COMPRESSION);
		try {
			encoder.writeOutbound(Unpooled.wrappedBuffer(data));
			encoder.finish();
			ByteBuf all = written(encoder);
			try {
				return ByteBufUtil.getBytes(all);
			}
			finally {
				all.release();
			}
		}
		finally {
			encoder.finishAndReleaseAll();
		}
	}

	/**
	 * Compresses a stream. Every input buffer is released, also on error and
	 * cancellation.
	 * @param content the bytes
	 * @return the gzip stream, in chunks
	 */
	public static Flux<ByteBuf> compress(Flux<ByteBuf> content) {
		return Flux.using(() -> encoder(STREAM_LEVEL), encoder -> content.concatMap(buffer -> {
			// The encoder releases the buffer.
			encoder.writeOutbound(buffer);
			return nonEmpty(written(encoder));
		}).concatWith(Mono.defer(() -> {
			encoder.finish();
			return nonEmpty(written(encoder));
		})), EmbeddedChannel::finishAndReleaseAll);
	}

	private static EmbeddedChannel encoder(int level) {
		return new EmbeddedChannel(ZlibCodecFactory.newZlibEncoder(ZlibWrapper.GZIP, level));
	}

	/**
	 * What the encoder has written since last asked, as one buffer that the caller
	 * releases.
	 */
	private static ByteBuf written(EmbeddedChannel encoder) {
		ByteBuf first = encoder.readOutbound();
		if (first == null) {
			return Unpooled.EMPTY_BUFFER;
		}
		ByteBuf next = encoder.readOutbound();
		if (next == null) {
			return first;
		}
		CompositeByteBuf all = Unpooled.compositeBuffer(Integer.MAX_VALUE).addComponent(true, first);
		for (; next != null; next = encoder.readOutbound()) {
			all.addComponent(true, next);
		}
		return all;
	}

	private static Mono<ByteBuf> nonEmpty(ByteBuf buffer) {
		if (buffer.isReadable()) {
			return Mono.just(buffer);
		}
		buffer.release();
		return Mono.empty();
	}

}
