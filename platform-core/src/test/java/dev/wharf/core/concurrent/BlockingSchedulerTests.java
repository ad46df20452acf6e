package dev.wharf.core.concurrent;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BlockingScheduler}: cancelling never interrupts, a worker keeps its tasks in
 * order, the queue is bounded, delayed and periodic tasks run on the pool, and threads
 * carry the scheduler's name.
 */
class BlockingSchedulerTests {

	private final BlockingScheduler scheduler = BlockingScheduler.create("wharf-test-io", 2, 4);

	@AfterEach
	void dispose() {
		this.scheduler.dispose();
	}

	@Test
	void cancellingARunningTaskDoesNotInterruptItsThread() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch finished = new CountDownLatch(1);
		Disposable task = this.scheduler.schedule(() -> {
			started.countDown();
			awaitUninterruptibly(release);
			interrupted.set(Thread.currentThread().isInterrupted());
			finished.countDown();
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		task.dispose();
		release.countDown();
		assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(interrupted).isFalse();
	}

	@Test
	void aValueDeliveredBeforeCancellationLeavesTheDownstreamWorkUninterrupted() throws InterruptedException {
		// The shape of reactor-core#962: the blocking call has returned and the same task
		// runs the code
		// downstream when another thread cancels the upstream subscription.
		CountDownLatch downstreamRunning = new CountDownLatch(1);
		CountDownLatch cancelled = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean(true);
		CountDownLatch done = new CountDownLatch(1);
		AtomicReference<Subscription> upstream = new AtomicReference<>();
		Mono.fromCallable(() -> "stat").subscribeOn(this.scheduler).doOnSubscribe(upstream::set).subscribe(value -> {
			downstreamRunning.countDown();
			awaitUninterruptibly(cancelled);
			interrupted.set(Thread.currentThread().isInterrupted());
			done.countDown();
		});
		assertThat(downstreamRunning.await(10, TimeUnit.SECONDS)).isTrue();
		upstream.get().cancel();
		cancelled.countDown();
		assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(interrupted).isFalse();
	}

	@Test
	void aWorkerRunsItsTasksOneAtATimeInOrder() throws InterruptedException {
		Scheduler.Worker worker = this.scheduler.createWorker();
		List<Integer> order = new CopyOnWriteArrayList<>();
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		CountDownLatch done = new CountDownLatch(50);
		for (int i = 0; i < 50; i++) {
			int index = i;
			worker.schedule(() -> {
				mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
				order.add(index);
				running.decrementAndGet();
				done.countDown();
			});
		}
		assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(order).isSortedAccordingTo(Integer::compare).hasSize(50);
		assertThat(mostAtOnce).hasValue(1);
		worker.dispose();
	}

	@Test
	void aFullQueueRefusesWorkWithAnErrorSignal() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch busy = new CountDownLatch(2);
		for (int i = 0; i < 2; i++) {
			this.scheduler.schedule(() -> {
				busy.countDown();
				awaitUninterruptibly(release);
			});
		}
		assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
		CountDownLatch queuedRan = new CountDownLatch(4);
		for (int i = 0; i < 4; i++) {
			this.scheduler.schedule(queuedRan::countDown);
		}
		StepVerifier.create(Mono.fromCallable(() -> "late").subscribeOn(this.scheduler))
			.expectError(RejectedExecutionException.class)
			.verify(Duration.ofSeconds(10));
		release.countDown();
		assertThat(queuedRan.await(10, TimeUnit.SECONDS)).isTrue();
		StepVerifier.create(Mono.fromCallable(() -> "later").subscribeOn(this.scheduler))
			.expectNext("later")
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void delayedAndPeriodicTasksRunOnTheNamedThreads() throws InterruptedException {
		AtomicReference<String> delayedThread = new AtomicReference<>();
		CountDownLatch delayed = new CountDownLatch(1);
		long start = System.nanoTime();
		this.scheduler.schedule(() -> {
			delayedThread.set(Thread.currentThread().getName());
			delayed.countDown();
		}, 100, TimeUnit.MILLISECONDS);
		assertThat(delayed.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
		assertThat(delayedThread.get()).matches("wharf-test-io-\\d+");

		CountDownLatch ticks = new CountDownLatch(3);
		Disposable periodic = this.scheduler.schedulePeriodically(ticks::countDown, 0, 20, TimeUnit.MILLISECONDS);
		assertThat(ticks.await(10, TimeUnit.SECONDS)).isTrue();
		periodic.dispose();
	}

	@Test
	void fluxSubscribeOnDeliversEveryElementOnTheNamedThreads() {
		List<String> threads = new CopyOnWriteArrayList<>();
		StepVerifier
			.create(Flux.range(0, 1000)
				.doOnNext(i -> threads.add(Thread.currentThread().getName()))
				.subscribeOn(this.scheduler)
				.publishOn(reactor.core.scheduler.Schedulers.parallel(), 7)
				.count())
			.expectNext(1000L)
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(threads).allMatch(name -> name.startsWith("wharf-test-io-"));
	}

	@Test
	void aDisposedSchedulerRefusesWork() {
		this.scheduler.dispose();
		assertThat(this.scheduler.isDisposed()).isTrue();
		StepVerifier.create(Mono.fromCallable(() -> "x").subscribeOn(this.scheduler))
			.expectError(RejectedExecutionException.class)
			.verify(Duration.ofSeconds(10));
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
