package dev.wharf.staticfiles.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * gzip (RFC 1952) for on-the-fly compression: of a whole small file, once, for the cache; and of a stream,
 * chunk by chunk, for files too large to cache.
 *
 * <p>Stateless; safe for concurrent use. A stream's deflater is used by one subscriber at a time.
 */
public final class Gzip {

	/** Level for streams: fast, since it is paid on every response. */
	private static final int STREAM_LEVEL = 5;

	private static final int OUTPUT_CHUNK = 16 * 1024;

	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff };

	private Gzip() {
	}

	/**
	 * Compresses bytes at the best level (a cached file is compressed once).
	 * @param data the bytes
	 * @return the gzip stream
	 */
	public static byte[] compress(byte[] data) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 3 + 64);
		try (GZIPOutputStream gzip = new GZIPOutputStream(out, 8192) {
			{
				this.def.setLevel(Deflater.BEST_COMPRESSION);
			}
		}) {
			gzip.write(data);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	/**
	 * Compresses a stream. Every input buffer is released, also on error and cancellation.
	 * @param content the bytes
	 * @return the gzip stream, in chunks
	 */
	public static Flux<ByteBuf> compress(Flux<ByteBuf> content) {
		return Flux.using(Stream::new,
				stream -> content.concatMap(buffer -> {
					try {
						return Mono.justOrEmpty(stream.update(buffer));
					}
					finally {
						ReferenceCountUtil.release(buffer);
					}
				}).concatWith(Mono.fromCallable(stream::finish)),
				Stream::end);
	}

	/** One compression in progress. */
	private static final class Stream {

		private final Deflater deflater = new Deflater(STREAM_LEVEL, true);

		private final CRC32 crc = new CRC32();

		private boolean headerWritten;

		private boolean finishing;

		@Nullable ByteBuf update(ByteBuf input) {
			ByteBuffer bytes = input.nioBuffer();
			this.crc.update(bytes.duplicate());
			this.deflater.setInput(bytes);
			ByteArrayOutputStream out = new ByteArrayOutputStream(OUTPUT_CHUNK);
			writeHeader(out);
			drain(out);
			return (out.size() > 0) ? Unpooled.wrappedBuffer(out.toByteArray()) : null;
		}

		ByteBuf finish() {
			ByteArrayOutputStream out = new ByteArrayOutputStream(64);
			writeHeader(out);
			this.deflater.finish();
			this.finishing = true;
			drain(out);
			long crc = this.crc.getValue();
			long size = this.deflater.getBytesRead();
			for (int i = 0; i < 4; i++) {
				out.write((int) (crc >>> (8 * i)));
			}
			for (int i = 0; i < 4; i++) {
				out.write((int) (size >>> (8 * i)));
			}
			return Unpooled.wrappedBuffer(out.toByteArray());
		}

		private void writeHeader(ByteArrayOutputStream out) {
			if (!this.headerWritten) {
				out.write(HEADER, 0, HEADER.length);
				this.headerWritten = true;
			}
		}

		/** Deflates until the input is used up or, once finishing, until the stream is complete. */
		private void drain(ByteArrayOutputStream out) {
			byte[] chunk = new byte[OUTPUT_CHUNK];
			while (!this.deflater.finished()) {
				int n = this.deflater.deflate(chunk);
				out.write(chunk, 0, n);
				if (n == 0 && this.deflater.needsInput() && !this.finishing) {
					return;
				}
			}
		}

		void end() {
			this.deflater.end();
		}

	}

}
