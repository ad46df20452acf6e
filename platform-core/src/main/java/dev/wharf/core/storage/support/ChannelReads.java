package dev.wharf.core.storage.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.Callable;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * Streams a blocking channel as buffers, reading on a given scheduler and never on the
 * subscriber's thread, with few buffers in flight so a slow client holds little memory.
 */
public final class ChannelReads {

	/** Size of each buffer read. */
	public static final int BUFFER_SIZE = 32 * 1024;

	/** Buffers requested ahead of the subscriber. */
	private static final int IN_FLIGHT = 8;

	private ChannelReads() {
	}

	/**
	 * Reads a channel to its end or to a length.
	 * @param opener opens the channel, already positioned at the first byte; called on
	 * the scheduler
	 * @param length how many bytes at most, or a negative number for all
	 * @param scheduler where the blocking calls run
	 * @param errorMapper turns an I/O failure into the error to signal
	 * @return the content; the channel is closed on completion, error or cancellation
	 */
	public static Flux<DataBuffer> read(Callable<? extends ReadableByteChannel> opener, long length,
			Scheduler scheduler, Function<IOException, ? extends RuntimeException> errorMapper) {
		return Flux.<DataBuffer, ReadState>generate(() -> new ReadState(opener.call(), length), (state, sink) -> {
			try {
				DataBuffer next = state.next();
				if (next == null) {
					sink.complete();
				}
				else {
					sink.next(next);
				}
			}
			catch (IOException ex) {
				sink.error(errorMapper.apply(ex));
			}
			return state;
		}, ReadState::close).subscribeOn(scheduler).limitRate(IN_FLIGHT);
	}

	private static final class ReadState {

		private final ReadableByteChannel channel;

		private long remaining;

		ReadState(ReadableByteChannel channel, long length) {
			this.channel = channel;
			this.remaining = (length < 0) ? Long.MAX_VALUE : length;
		}

		@Nullable DataBuffer next() throws IOException {
			if (this.remaining == 0) {
				return null;
			}
			ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(BUFFER_SIZE, this.remaining));
			while (buffer.hasRemaining()) {
				int read = this.channel.read(buffer);
				if (read < 0) {
					break;
				}
			}
			if (buffer.position() == 0) {
				return null;
			}
			this.remaining -= buffer.position();
			buffer.flip();
			return DefaultDataBufferFactory.sharedInstance.wrap(buffer);
		}

		void close() {
			try {
				this.channel.close();
			}
			catch (IOException ex) {
				// Nothing was written through this channel, so a failed close loses
				// nothing.
			}
		}

	}

}
