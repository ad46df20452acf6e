package dev.wharf.ftp.data;

import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.support.ChannelWrites;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * Allocates and sizes the reads of data connections so that all uploads together hold a bounded amount of
 * memory. Reads are {@value #MAX_READ} bytes while the buffers all uploads hold stay under the budget (large
 * reads mean fewer hand-offs to the storage's threads per byte); above it, each of the uploads under way gets
 * an equal share, assuming each keeps a few reads in flight (the storage asks for some ahead), down to
 * {@value #MIN_READ} bytes, and the rest waits in the kernel's socket buffers.
 *
 * <p>The buffers come from a pool of their own. Netty's default allocator pools nothing above 16 KiB when the
 * heap is under 512 MiB (every Wharf profile), so each 64 KiB read was a fresh, zeroed direct buffer:
 * {@code Unsafe.setMemory} alone took 7% of the server's CPU time in a single-upload profile. The pool has no
 * thread caches, and a chunk that empties is given back, so idle uploads hold nothing. Thread-safe.
 */
final class ReceiveBudget {

	/**
	 * Largest read. A single upload with 256 KiB reads ran at 1,260-1,580 MB/s warm against 880-1,080 with 64 KiB
	 * (ftpbench -b upload, docs/benchmarks/ftp.md): a quarter of the hand-offs to the storage's thread per byte.
	 */
	static final int MAX_READ = 256 * 1024;

	/** Smallest read. */
	static final int MIN_READ = 4 * 1024;

	/** Reads of one connection in one event loop turn. */
	static final int READS_PER_TURN = 4;

	/**
	 * Reads one upload may hold at once: what the local and SFTP mounts' writes ask for ahead (the one being written
	 * included) and what {@link EarlyReceiver} holds beyond it.
	 */
	static final int READS_IN_FLIGHT = ChannelWrites.PREFETCH + EarlyReceiver.QUEUED_READS;

	/** Pool chunks of 8 KiB pages times 2^7: 1 MiB, so a pool that empties gives its memory back in small steps. */
	private static final int PAGE_SIZE = 8192;

	private static final int MAX_ORDER = 7;

	private final long budget;

	private final AtomicInteger uploads = new AtomicInteger();

	private final PooledByteBufAllocator buffers = new PooledByteBufAllocator(true, 0, 1, PAGE_SIZE, MAX_ORDER, 0, 0,
			false);

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

	/** The allocator of receive buffers. */
	ByteBufAllocator buffers() {
		return this.buffers;
	}

	/** The size of the next read. */
	int readSize() {
		if (heldBytes() + MAX_READ <= this.budget) {
			return MAX_READ;
		}
		long share = this.budget / Math.max(1, this.uploads.get()) / READS_IN_FLIGHT;
		return (int) Math.max(MIN_READ, Math.min(MAX_READ, share & ~1023L));
	}

	/** Bytes the receive buffers hold now. */
	long heldBytes() {
		return this.buffers.pinnedDirectMemory();
	}

	/**
	 * A read-size policy for a channel: up to {@value #READS_PER_TURN} reads per event loop turn (fewer
	 * wake-ups of the storage's threads than one: a single upload ran about a quarter faster), each sized by
	 * the budget. The reads stop early when the storage has asked for nothing more.
	 */
	RecvByteBufAllocator allocator() {
		return new DefaultMaxMessagesRecvByteBufAllocator(READS_PER_TURN) {

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
