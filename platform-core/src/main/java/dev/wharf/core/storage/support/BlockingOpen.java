package dev.wharf.core.storage.support;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Opens a resource with a blocking call, for {@code Mono.usingWhen}, so that a cancel never leaks it.
 *
 * <p>{@code Mono.fromCallable(open).subscribeOn(scheduler)} drops a value that the call produces after
 * the subscriber cancelled, and it sends no discard signal. A temporary file opened for an upload
 * whose client had just gone stayed on disk, and an SFTP upload also kept its pooled connection leased.
 * Here the open runs in a task that a cancel drops if it has not started yet. A resource that arrives after
 * a cancel is closed on the scheduler (closing may block too). One window stays: Reactor's {@code MonoSink}
 * can drop a value, not discard it, when a cancel lands between two of its own steps; that window is a few
 * instructions wide, not the whole open.
 *
 * <p>Thread-safe; the returned {@link Mono} opens one resource per subscription.
 */
public final class BlockingOpen {

	private BlockingOpen() {
	}

	/**
	 * A {@link Mono} of a resource opened on a scheduler.
	 * @param <T> the resource's type
	 * @param type the resource's class (what is discarded)
	 * @param open the blocking call that opens it
	 * @param close closes a resource nobody took; runs on {@code scheduler} and must not throw
	 * @param scheduler where the blocking calls run
	 * @return the resource, or the call's error
	 */
	public static <T> Mono<T> open(Class<T> type, Callable<T> open, Consumer<? super T> close, Scheduler scheduler) {
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
				sink.success(resource);
			});
			sink.onCancel(task);
		}).doOnDiscard(type, resource -> scheduler.schedule(() -> close.accept(resource)));
	}

}
