package dev.wharf.core.storage.support;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Opens a resource with a blocking call, for {@code Mono.usingWhen}, so that a cancel
 * never leaks it.
 *
 * <p>
 * {@code Mono.fromCallable(open).subscribeOn(scheduler)} drops a value that the call
 * produces after the subscriber cancelled, and it sends no discard signal. A temporary
 * file opened for an upload whose client had just gone stayed on disk, and an SFTP upload
 * also kept its pooled connection leased. {@code Mono.create} with a discard hook is not
 * enough either: a cancel that lands while the sink hands the value on makes it drop the
 * value without a discard (seen in CI as a temporary file left by an aborted FTP upload).
 * So ownership is explicit here: the resource belongs to this class until the subscriber
 * has received it, and whichever of "received" and "cancelled" comes first decides, once,
 * who closes it. A cancel before the open starts skips the open; a resource nobody
 * received is closed on the scheduler (closing may block too).
 *
 * <p>
 * Thread-safe; the returned {@link Mono} opens one resource per subscription.
 */
public final class BlockingOpen {

	private static final Object PENDING = new Object();

	private static final Object TAKEN = new Object();

	private static final Object CANCELLED = new Object();

	private BlockingOpen() {
	}

	/**
	 * A {@link Mono} of a resource opened on a scheduler.
	 * @param <T> the resource's type
	 * @param open the blocking call that opens it
	 * @param close closes a resource nobody took; runs on {@code scheduler} and must not
	 * throw
	 * @param scheduler where the blocking calls run
	 * @return the resource, or the call's error
	 */
	public static <T> Mono<T> open(Callable<T> open, Consumer<? super T> close, Scheduler scheduler) {
		return Mono.defer(() -> {
			// PENDING, then the opened resource, then TAKEN or CANCELLED.
			AtomicReference<Object> state = new AtomicReference<>(PENDING);
			return Mono.<T>create(sink -> {
				Disposable task = scheduler.schedule(() -> {
					T resource;
					try {
						resource = open.call();
					}
					catch (Exception ex) {
						sink.error(ex);
						return;
					}
					if (state.compareAndSet(PENDING, resource)) {
						sink.success(resource);
					}
					else {
						close.accept(resource);
					}
				});
				sink.onCancel(() -> {
					task.dispose();
					Object previous = state.getAndSet(CANCELLED);
					if (previous != PENDING && previous != TAKEN && previous != CANCELLED) {
						scheduler.schedule(() -> close.accept(cast(previous)));
					}
				});
			}).handle((resource, taken) -> {
				// Cancelled at the same moment: the cancel closes it, and the cancelled
				// subscriber wants nothing.
				if (state.compareAndSet(resource, TAKEN)) {
					taken.next(resource);
				}
			});
		});
	}

	@SuppressWarnings("unchecked")
	private static <T> T cast(Object resource) {
		return (T) resource;
	}

}
