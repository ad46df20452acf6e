package dev.wharf.filemanager.thumbnail;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.filemanager.http.ApiException;
import org.springframework.http.HttpStatus;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Admission to making thumbnails: at most a number are made at once, and the others wait
 * for a slot in the order they came, before their source is read, so a waiting request
 * holds neither a thread nor image bytes (only its own small state), and the workers'
 * pool never gets more tasks than there are slots. Past the most waiting, or after
 * waiting too long, a request fails with 503 and {@code Retry-After}. A request cancelled
 * while it waits (its client went away) leaves the line at once; a slot is given back
 * exactly once however the work ends. Thread-safe.
 */
public final class ThumbnailSlots {

	/** What a client refused for being busy is told to wait before it tries again. */
	static final Duration RETRY_AFTER = Duration.ofSeconds(5);

	private final int slots;

	private final int maxWaiting;

	private final Duration maxWait;

	private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

	private int taken;

	/**
	 * Creates the slots.
	 * @param slots the most thumbnails made at once (the workers' threads; at most the
	 * tasks their pool accepts)
	 * @param maxWaiting the most requests waiting for a slot
	 * @param maxWait the longest a request waits for a slot
	 */
	public ThumbnailSlots(int slots, int maxWaiting, Duration maxWait) {
		if (slots < 1 || maxWaiting < 0 || maxWait.isNegative() || maxWait.isZero()) {
			throw new IllegalArgumentException(
					"slots " + slots + ", max waiting " + maxWaiting + ", max wait " + maxWait + " out of range");
		}
		this.slots = slots;
		this.maxWaiting = maxWaiting;
		this.maxWait = maxWait;
	}

	/**
	 * Runs blocking work on the workers once a slot is free. The slot is given back when
	 * the work's task ends, also for a request cancelled meanwhile (its task then skips
	 * the work if it had not started, and its result is dropped if it had), so the
	 * workers never hold more tasks than there are slots; or at once when the request
	 * ends before its task was handed to the workers.
	 * @param <T> the work's result
	 * @param prepare the work, subscribed to once a slot is taken (not before): what is
	 * cheap and does not block, its value what blocks
	 * @param workers where the blocking part runs
	 * @return the work's outcome; fails with a 503 {@link ApiException} if too many wait
	 * or the wait is too long
	 */
	public <T> Mono<T> run(Mono<Callable<T>> prepare, Scheduler workers) {
		return Mono.<Slot>create(this::take)
			.flatMap(slot -> prepare.flatMap(work -> onWorkers(work, workers, slot))
				.doFinally(signal -> slot.releaseUnlessHandedOver()));
	}

	private static <T> Mono<T> onWorkers(Callable<T> work, Scheduler workers, Slot slot) {
		return Mono.create(sink -> {
			if (!slot.handOver()) {
				// Cancelled meanwhile, and the slot already given back.
				return;
			}
			if (workers.isDisposed()) {
				// Shutting down: refused here, not by the pool (whose refusal Reactor
				// reports to the thread's uncaught-exception handler too).
				slot.releaseHandedOver();
				sink.error(new RejectedExecutionException("The thumbnail workers are stopped"));
				return;
			}
			AtomicBoolean cancelled = new AtomicBoolean();
			sink.onCancel(() -> cancelled.set(true));
			Runnable task = () -> {
				try {
					if (!cancelled.get()) {
						sink.success(work.call());
					}
				}
				catch (Throwable ex) {
					Exceptions.throwIfJvmFatal(ex);
					sink.error(ex);
				}
				finally {
					slot.releaseHandedOver();
				}
			};
			try {
				workers.schedule(task);
			}
			catch (RejectedExecutionException ex) {
				// Not expected (the pool's queue is as long as there are slots), but a
				// refused task must not keep its slot.
				slot.releaseHandedOver();
				sink.error(ex);
			}
		});
	}

	private void take(MonoSink<Slot> sink) {
		Waiter waiter = new Waiter(sink);
		boolean granted;
		boolean full = false;
		synchronized (this) {
			granted = this.taken < this.slots && this.waiters.isEmpty();
			if (granted) {
				this.taken++;
			}
			else if (this.waiters.size() >= this.maxWaiting) {
				full = true;
			}
			else {
				this.waiters.add(waiter);
			}
		}
		if (full) {
			sink.error(busy());
			return;
		}
		// A cancelled waiter leaves the line; one cancelled just after it was given a
		// slot (the slot's value then never arrives downstream) gives the slot back.
		sink.onCancel(waiter::abandon);
		if (granted) {
			waiter.grant();
		}
		else {
			// Not Mono.timeout: its time-out may cross a slot just given, which then
			// arrives nowhere and is never given back.
			Disposable timer = Schedulers.parallel()
				.schedule(waiter::expire, this.maxWait.toMillis(), TimeUnit.MILLISECONDS);
			sink.onDispose(timer);
		}
	}

	/** A slot freed: to the first waiter still waiting, or back to the free ones. */
	private void freed() {
		while (true) {
			Waiter next;
			synchronized (this) {
				next = this.waiters.poll();
				if (next == null) {
					this.taken--;
					return;
				}
			}
			// Outside the lock: the waiter's work starts on this thread.
			if (next.grant()) {
				return;
			}
		}
	}

	private synchronized void leave(Waiter waiter) {
		this.waiters.remove(waiter);
	}

	/** Slots taken now, for tests. */
	synchronized int taken() {
		return this.taken;
	}

	/** Requests waiting now, for tests. */
	synchronized int waiting() {
		return this.waiters.size();
	}

	private static ApiException busy() {
		return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Too many thumbnails are being made, try again",
				RETRY_AFTER);
	}

	/** One request in line: waiting, then given a slot or gone. */
	private final class Waiter {

		private static final int WAITING = 0;

		private static final int GRANTED = 1;

		private static final int GONE = 2;

		private final AtomicInteger state = new AtomicInteger(WAITING);

		private final MonoSink<Slot> sink;

		private final Slot slot = new Slot();

		Waiter(MonoSink<Slot> sink) {
			this.sink = sink;
		}

		/** Hands over a slot, unless the request is gone; true if it took the slot. */
		boolean grant() {
			if (!this.state.compareAndSet(WAITING, GRANTED)) {
				return false;
			}
			this.sink.success(this.slot);
			return true;
		}

		void expire() {
			if (this.state.compareAndSet(WAITING, GONE)) {
				leave(this);
				this.sink.error(busy());
			}
		}

		void abandon() {
			if (this.state.compareAndSet(WAITING, GONE)) {
				leave(this);
			}
			else {
				// Given a slot that may never have arrived downstream.
				this.slot.releaseUnlessHandedOver();
			}
		}

	}

	/**
	 * One slot taken: held by a request, then handed over with its task to the workers,
	 * and released once, by whoever holds it.
	 */
	private final class Slot {

		private static final int HELD = 0;

		private static final int HANDED_OVER = 1;

		private static final int RELEASED = 2;

		private final AtomicInteger state = new AtomicInteger(HELD);

		boolean handOver() {
			return this.state.compareAndSet(HELD, HANDED_OVER);
		}

		void releaseUnlessHandedOver() {
			if (this.state.compareAndSet(HELD, RELEASED)) {
				freed();
			}
		}

		void releaseHandedOver() {
			if (this.state.compareAndSet(HANDED_OVER, RELEASED)) {
				freed();
			}
		}

	}

}
