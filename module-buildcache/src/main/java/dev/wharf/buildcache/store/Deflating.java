package dev.wharf.buildcache.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import dev.wharf.core.storage.StorageIoException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Entries stored deflated: a raw deflate stream followed by a 12-byte trailer (the
 * original length and the mark {@code WBC1}), so that the length is known after streaming
 * an upload of unannounced length and one small range read at the end finds it.
 * Compressing and inflating are CPU work, so both run on a bounded scheduler, one buffer
 * at a time; inflating never produces more than the trailer's length, which is never more
 * than the cache's maximum entry size, so a planted entry cannot become a decompression
 * bomb.
 */
final class Deflating {

	/** Bytes after the deflate stream. */
	static final int TRAILER = 12;

	private static final int MAGIC = 0x57424331; // "WBC1"

	private static final int OUT = 64 * 1024;

	private Deflating() {
	}

	/**
	 * Compresses content.
	 * @param content the original bytes; every buffer is released
	 * @param scheduler where deflating runs
	 * @return the compressed bytes and the trailer
	 */
	static Flux<DataBuffer> deflate(Flux<DataBuffer> content, Scheduler scheduler) {
		return Flux.using(() -> new Deflater(Deflater.DEFAULT_COMPRESSION, true), deflater -> {
			long[] seen = { 0 };
			Flux<DataBuffer> body = content.publishOn(scheduler, 2).concatMapIterable(buffer -> {
				try {
					seen[0] += buffer.readableByteCount();
					List<DataBuffer> out = new ArrayList<>(2);
					try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
						while (it.hasNext()) {
							deflater.setInput(it.next());
							drain(deflater, out, false);
						}
					}
					return out;
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			});
			Mono<List<DataBuffer>> end = Mono.fromCallable(() -> {
				deflater.finish();
				List<DataBuffer> out = new ArrayList<>(3);
				drain(deflater, out, true);
				ByteBuffer trailer = ByteBuffer.allocate(TRAILER);
				trailer.putLong(seen[0]).putInt(MAGIC).flip();
				out.add(DefaultDataBufferFactory.sharedInstance.wrap(trailer));
				return out;
			});
			return body.concatWith(end.flatMapIterable(out -> out));
		}, Deflater::end).doOnDiscard(DataBuffer.class, DataBufferUtils::release);
	}

	private static void drain(Deflater deflater, List<DataBuffer> out, boolean finishing) {
		while (finishing ? !deflater.finished() : !deflater.needsInput()) {
			byte[] chunk = new byte[OUT];
			int n = deflater.deflate(chunk);
			if (n > 0) {
				out.add(DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(chunk, 0, n)));
			}
		}
	}

	/**
	 * Reads an entry's original length from its trailer.
	 * @param trailer the last {@value #TRAILER} bytes of the stored entry
	 * @param maxLength the largest length accepted
	 * @return the original length
	 */
	static long originalLength(byte[] trailer, long maxLength) {
		ByteBuffer buffer = ByteBuffer.wrap(trailer);
		if (trailer.length != TRAILER) {
			throw new StorageIoException("A build cache entry is not in the deflate format");
		}
		long length = buffer.getLong();
		if (buffer.getInt() != MAGIC) {
			throw new StorageIoException("A build cache entry is not in the deflate format");
		}
		if (length < 0 || length > maxLength) {
			throw new StorageIoException("A build cache entry claims an impossible length");
		}
		return length;
	}

	/**
	 * Inflates a stored entry's deflate stream (the bytes before the trailer).
	 * @param stored the compressed bytes; every buffer is released
	 * @param length the original length from the trailer: more output, or less, is an
	 * error
	 * @param scheduler where inflating runs
	 * @return the original bytes
	 */
	static Flux<DataBuffer> inflate(Flux<DataBuffer> stored, long length, Scheduler scheduler) {
		return Flux.using(() -> new Inflater(true), inflater -> {
			long[] produced = { 0 };
			return stored.publishOn(scheduler, 2).concatMapIterable(buffer -> {
				try {
					List<DataBuffer> out = new ArrayList<>(2);
					try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
						while (it.hasNext()) {
							inflater.setInput(it.next());
							while (!inflater.needsInput() && !inflater.finished()) {
								byte[] chunk = new byte[(int) Math.min(OUT, Math.max(1, length - produced[0]))];
								int n = inflater.inflate(chunk);
								produced[0] += n;
								if (produced[0] > length || (n == 0 && inflater.needsDictionary())) {
									throw new StorageIoException(
											"A build cache entry inflates to more than its length");
								}
								if (n > 0) {
									out.add(DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(chunk, 0, n)));
								}
							}
						}
					}
					return out;
				}
				catch (DataFormatException ex) {
					throw new StorageIoException("A build cache entry is corrupt", ex);
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			}).concatWith(Mono.fromRunnable(() -> {
				if (produced[0] != length || !inflater.finished()) {
					throw new StorageIoException("A build cache entry is truncated");
				}
			}));
		}, Inflater::end).doOnDiscard(DataBuffer.class, DataBufferUtils::release);
	}

}
