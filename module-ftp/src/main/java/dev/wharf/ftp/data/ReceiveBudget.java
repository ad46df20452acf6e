package dev.wharf.ftp.data;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import reactor.core.scheduler.Schedulers;

/**
 * Allocates and sizes the reads of data connections so that all uploads together hold a
 * bounded amount of memory. Reads are {@value #MAX_READ} bytes while the buffers all
 * uploads hold stay well under the budget and {@value #SHARED_READ} bytes while there is
 * room for that; a connection that finds no room after a read stops reading and waits
 * (its bytes stay in the kernel's socket buffer) until buffers are given back. So the
 * budget is divided into reads that stay large, instead of into ever smaller reads for
 * every upload, each of which costs a hand-off to the storage's thread and a file write
 * (docs/benchmarks/ftp.md, "Read slots"). The buffers held stay under the budget plus one
 * smallest read per connection: a connection that reads when the budget is spent reads
 * {@value #MIN_READ} bytes and then waits. TLS uploads do not wait (see
 * {@link EarlyReceiver}); while the budget is spent they go on with reads of
 * {@value #MIN_READ} bytes.
 *
 * <p>
 * The buffers come from a pool of their own: Netty's default allocator pools nothing
 * above 16 KiB when the heap is under 512 MiB (every Wharf profile), so each read would
 * be a fresh, zeroed direct buffer (docs/benchmarks/ftp.md, "The upload path, profiled").
 * The pool has no thread caches, and one chunk holds the whole budget (see
 * {@link #chunkOrder}), so idle uploads hold at most that chunk. Thread-safe.
 */
final class ReceiveBudget {

	/**
	 * Largest read: a quarter of the hand-offs to the storage's thread per byte that 64
	 * KiB reads make; larger reads were no faster and would double what each upload holds
	 * (docs/benchmarks/ftp.md, "Larger reads for uploads").
	 */
	static final int MAX_READ = 256 * 1024;

	/**
	 * Reads while uploads share the budget: small file writes cost the kernel more per
	 * byte, and smaller shared reads gained nothing (docs/benchmarks/ftp.md, "Figures
	 * behind FTP's constants").
	 */
	static final int SHARED_READ = 64 * 1024;

	/** The read of a connection that reads while the budget is spent, before it waits. */
	static final int MIN_READ = 4 * 1024;

	/** Reads of one connection in one event loop turn. */
	static final int READS_PER_TURN = 4;

	/**
	 * How soon waiting connections are looked at again while some wait. Buffers are given
	 * back by the storage's threads without telling anyone; the storage's requests for
	 * more (see {@link EarlyReceiver}) wake the waiting sooner, but come only every few
	 * buffers.
	 */
	private static final Duration RECHECK = Duration.ofMillis(2);

	/** Pool chunks are made of 8 KiB pages. */
	private static final int PAGE_SIZE = 8192;

	/** Smallest chunk: 8 KiB pages times 2^7, 1 MiB. */
	private static final int MIN_ORDER = 7;

	/** Largest chunk: 8 KiB pages times 2^11, 16 MiB, the largest budget. */
	private static final int MAX_ORDER = 11;

	private final long budget;

	private final PooledByteBufAllocator buffers;

	private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean recheckScheduled = new AtomicBoolean();

	/**
	 * Creates the budget.
	 * @param budget bytes all uploads may hold in read buffers together
	 */
	ReceiveBudget(long budget) {
		this.budget = budget;
		this.buffers = new PooledByteBufAllocator(true, 0, 1, PAGE_SIZE, chunkOrder(budget), 0, 0, false);
	}

	/**
	 * Chunks as large as the budget, 1 to 16 MiB. Netty's pool frees a chunk that empties
	 * once it has been a quarter full, and each new chunk is zeroed and faulted in page
	 * by page. With 1 MiB chunks a single 256 KiB read made a chunk a quarter full: an
	 * upload whose storage kept up with its client (each read written and given back
	 * before the next) got a fresh chunk for every read, and concurrent uploads emptied
	 * chunks all the time; zeroing them was a fifth of the server's CPU time on uploads
	 * (docs/benchmarks/ftp.md, "Chunks that outlive their reads"). A chunk that holds the
	 * whole budget empties only when all uploads pause, and is then freed if it had been
	 * a quarter full; one that never was stays, so idle uploads may hold one chunk.
	 * @param budget the budget
	 * @return the chunk's order: its size is 8 KiB times 2 to this power
	 */
	private static int chunkOrder(long budget) {
		int order = MIN_ORDER;
		while (order < MAX_ORDER && ((long) PAGE_SIZE << (order + 1)) <= budget) {
			order++;
		}
		return order;
	}

	/** The size of the pool's chunks. */
	long chunkSize() {
		return (long) PAGE_SIZE << chunkOrder(this.budget);
	}

	/** The allocator of receive buffers. */
	ByteBufAllocator buffers() {
		return this.buffers;
	}

	/** The size of the next read. */
	int readSize() {
		long held = heldBytes();
		if (held + MAX_READ <= this.budget) {
			return MAX_READ;
		}
		return (held + SHARED_READ <= this.budget) ? SHARED_READ : MIN_READ;
	}

	/**
	 * Whether a connection may go on reading: there is room for a shared read, or nothing
	 * is held at all (so that uploads move on under any budget).
	 */
	boolean hasRoom() {
		long held = heldBytes();
		return held == 0 || held + SHARED_READ <= this.budget;
	}

	/**
	 * Runs a task once there is room: at once, or on a later {@link #wake()}.
	 * @param resume resumes a connection's reads; run on any thread, must not block
	 */
	void whenRoom(Runnable resume) {
		this.waiting.offer(resume);
		wake();
	}

	/**
	 * Resumes as many waiting connections as the budget has room for one shared read
	 * each. Called when buffers may have been given back; looks again every
	 * {@link #RECHECK} while connections wait.
	 */
	void wake() {
		if (this.waiting.isEmpty()) {
			return;
		}
		long held = heldBytes();
		long room = (held == 0) ? Math.max(1, this.budget / SHARED_READ) : (this.budget - held) / SHARED_READ;
		for (long i = 0; i < room; i++) {
			Runnable next = this.waiting.poll();
			if (next == null) {
				return;
			}
			next.run();
		}
		if (!this.waiting.isEmpty() && this.recheckScheduled.compareAndSet(false, true)) {
			Schedulers.parallel().schedule(() -> {
				this.recheckScheduled.set(false);
				wake();
			}, RECHECK.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	/** Bytes the receive buffers hold now. */
	long heldBytes() {
		return this.buffers.pinnedDirectMemory();
	}

	/**
	 * A read-size policy for a channel: up to {@value #READS_PER_TURN} reads per event
	 * loop turn (fewer wake-ups of the storage's threads than one: a single upload ran
	 * about a quarter faster), each sized by the budget. The reads stop early when the
	 * storage has asked for nothing more.
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
