package dev.wharf.core.state;

import java.time.Duration;
import java.util.function.Supplier;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Named locks that end by themselves: a lock is held until it is released or its time to
 * live passes without a renewal, so a holder that dies (a replica killed) never keeps it.
 * In this process ({@link InProcessLocks}) or shared by every replica (Redis). Used where
 * one writer at a time matters: a resumable upload receiving data, the build cache
 * evicting.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller (often a
 * Netty event loop). Implementations are thread-safe. <b>Nulls.</b> No argument may be
 * {@code null}.
 */
public interface Locks {

	/**
	 * Takes a lock if nobody holds it.
	 * @param name the lock's name, such as {@code upload:data/4f…}
	 * @param timeToLive how long the lock lasts unless renewed or released; at least a
	 * millisecond
	 * @return the lock, or empty if someone holds it; fails with
	 * {@link SharedStateUnavailableException} if the shared store cannot be reached
	 */
	Mono<Lock> tryLock(String name, Duration timeToLive);

	/**
	 * Runs work under a lock: takes it, renews it every third of its time to live while
	 * the work runs, and releases it when the work ends in any way. The work's result or
	 * error reaches the subscriber only once the lock is released, so a caller that
	 * answers a client after it never makes the client's next request find its own lock
	 * still held. A renewal that fails (the store unreachable for a moment) does not stop
	 * the work: the lock then only protects as long as it lives; a release that fails
	 * lets it run out by itself.
	 * @param <T> the work's result
	 * @param name the lock's name
	 * @param timeToLive how long the lock lasts without a renewal
	 * @param work the work, subscribed once the lock is held
	 * @param busy the error when someone else holds the lock
	 * @return the work's result; fails with {@code busy} if the lock is held elsewhere
	 */
	default <T> Mono<T> whileLocked(String name, Duration timeToLive, Supplier<Mono<T>> work,
			Supplier<? extends Throwable> busy) {
		return Mono.usingWhen(tryLock(name, timeToLive).switchIfEmpty(Mono.error(busy)), lock -> {
			Duration every = timeToLive.dividedBy(3);
			Disposable renewing = Flux.interval(every, every)
				.onBackpressureDrop()
				.concatMap(tick -> lock.renew().onErrorResume(error -> Mono.just(false)), 1)
				.subscribe();
			return Mono.defer(work).doFinally(signal -> renewing.dispose());
		}, Locks::release, (lock, error) -> release(lock), Locks::release);
	}

	private static Mono<Void> release(Lock lock) {
		return lock.release().onErrorResume(error -> Mono.empty());
	}

	/**
	 * A lock held.
	 *
	 * <p>
	 * Thread-safe; every method returns at once.
	 */
	interface Lock {

		/**
		 * Extends the lock by its time to live from now.
		 * @return whether it was still held (false: it had run out, and someone may hold
		 * it now)
		 */
		Mono<Boolean> renew();

		/**
		 * Releases the lock if it is still held by this holder; a lock that ran out and
		 * was taken by someone else is left alone.
		 * @return completes when released
		 */
		Mono<Void> release();

	}

}
