package dev.wharf.ftp.data;

import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * Sizes the reads of data connections so that all uploads together hold a bounded amount of memory: the budget
 * is shared by the uploads under way, each of which keeps a few reads in flight (the storage asks for some
 * ahead). One upload reads in {@value #MAX_READ}-byte steps; hundreds read in smaller steps, down to
 * {@value #MIN_READ} bytes, and the rest waits in the kernel's socket buffers. Thread-safe.
 */
final class ReceiveBudget {

	/** Largest read. */
	static final int MAX_READ = 64 * 1024;

	/** Smallest read. */
	static final int MIN_READ = 4 * 1024;

	/** Reads one upload may hold at once: the storage's prefetch, the one being written, one queued. */
	static final int READS_IN_FLIGHT = 6;

	private final long budget;

	private final AtomicInteger uploads = new AtomicInteger();

	/**
	 * Creates the budget.
	 * @param budget bytes all uploads may hold in read buffers together
	 */
	ReceiveBudget(long budget) {
		this.budget = budget;
	}

	/** An upload starts receiving. */
	void started() {
		this.uploads.incrementAndGet();
	}

	/** An upload ended. */
	void ended() {
		this.uploads.decrementAndGet();
	}

	/** The size of the next read. */
	int readSize() {
		long share = this.budget / Math.max(1, this.uploads.get()) / READS_IN_FLIGHT;
		return (int) Math.max(MIN_READ, Math.min(MAX_READ, share & ~1023L));
	}

	/** A read-size policy for a channel: one read per event loop turn, sized by the budget. */
	RecvByteBufAllocator allocator() {
		return new DefaultMaxMessagesRecvByteBufAllocator(1) {

			@Override
			public Handle newHandle() {
				return new MaxMessageHandle() {

					@Override
					public int guess() {
						return readSize();
					}

				};
			}

		};
	}

}
