package dev.wharf.core.state;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

import reactor.core.publisher.Mono;

/**
 * {@link Locks} in this process's memory: the default for one replica. A released lock is
 * forgotten; one that ran out stays in the map until it is taken again. Everything runs
 * on the caller's thread in microseconds. Thread-safe.
 */
public final class InProcessLocks implements Locks {

	private final ConcurrentMap<String, Held> held = new ConcurrentHashMap<>();

	private final LongSupplier nanos;

	/** Creates the locks on the system's monotonic clock. */
	public InProcessLocks() {
		this(System::nanoTime);
	}

	/**
	 * Creates the locks on a clock of their own, so tests can let a lock run out without
	 * waiting.
	 * @param nanos a monotonic time in nanoseconds
	 */
	public InProcessLocks(LongSupplier nanos) {
		this.nanos = nanos;
	}

	@Override
	public Mono<Lock> tryLock(String name, Duration timeToLive) {
		return Mono.fromSupplier(() -> {
			Object owner = new Object();
			long now = this.nanos.getAsLong();
			Held taken = this.held.compute(name, (key, current) -> (current == null || current.endsAt() - now <= 0)
					? new Held(owner, now + timeToLive.toNanos()) : current);
			return (taken.owner() == owner) ? new InProcessLock(name, owner, timeToLive) : null;
		});
	}

	private record Held(Object owner, long endsAt) {
	}

	private final class InProcessLock implements Lock {

		private final String name;

		private final Object owner;

		private final Duration timeToLive;

		InProcessLock(String name, Object owner, Duration timeToLive) {
			this.name = name;
			this.owner = owner;
			this.timeToLive = timeToLive;
		}

		@Override
		public Mono<Boolean> renew() {
			return Mono.fromSupplier(() -> {
				long now = InProcessLocks.this.nanos.getAsLong();
				Held renewed = InProcessLocks.this.held.computeIfPresent(this.name,
						(key, current) -> (current.owner() == this.owner && current.endsAt() - now > 0)
								? new Held(this.owner, now + this.timeToLive.toNanos()) : current);
				return renewed != null && renewed.owner() == this.owner && renewed.endsAt() - now > 0;
			});
		}

		@Override
		public Mono<Void> release() {
			return Mono.fromRunnable(() -> InProcessLocks.this.held.computeIfPresent(this.name,
					(key, current) -> (current.owner() == this.owner) ? null : current));
		}

	}

}
