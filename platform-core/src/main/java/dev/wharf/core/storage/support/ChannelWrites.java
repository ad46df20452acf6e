package dev.wharf.core.storage.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Drains a stream of buffers into a blocking channel on a given scheduler, releasing
 * every buffer, holding only a few at a time, and checking an announced length.
 */
public final class ChannelWrites {

	/**
	 * Buffers a write asks for ahead of the writer: at most this many, the one being
	 * written included, are held at once.
	 */
	private static final int PREFETCH = 4;

	private ChannelWrites() {
	}

	/**
	 * Writes all of the content to the channel. The channel is left open for the caller
	 * to close.
	 * @param content the bytes; every buffer is released, also on error and cancellation
	 * @param channel where to write
	 * @param expectedLength the exact length required, or
	 * {@link WriteOptions#UNKNOWN_LENGTH}
	 * @param scheduler where the blocking writes run
	 * @return the number of bytes written; fails with {@link InvalidContentException} if
	 * the length does not match, or with {@link UncheckedIOException} wrapping a write
	 * failure
	 */
	public static Mono<Long> write(Flux<DataBuffer> content, WritableByteChannel channel, long expectedLength,
			Scheduler scheduler) {
		return Mono.defer(() -> {
			AtomicLong written = new AtomicLong();
			// handle() consumes each buffer without passing it on: then() would discard
			// (release) it a second time.
			return content.publishOn(scheduler, PREFETCH).<DataBuffer>handle((buffer, sink) -> {
				try {
					long total = written.addAndGet(buffer.readableByteCount());
					if (expectedLength >= 0 && total > expectedLength) {
						throw new InvalidContentException(
								"Content is longer than the announced " + expectedLength + " bytes");
					}
					try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
						while (it.hasNext()) {
							ByteBuffer bytes = it.next();
							while (bytes.hasRemaining()) {
								channel.write(bytes);
							}
						}
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			})
				// Buffers still queued upstream when the write fails or is cancelled are
				// released here.
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
				.then(Mono.fromCallable(() -> {
					long total = written.get();
					if (expectedLength >= 0 && total != expectedLength) {
						throw new InvalidContentException(
								"Content ended after " + total + " of the announced " + expectedLength + " bytes");
					}
					return total;
				}));
		});
	}

}
