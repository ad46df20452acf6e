package dev.wharf.filemanager.thumbnail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.filemanager.http.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ThumbnailSlots}: requests beyond the slots wait in turn without being
 * started, a cancelled waiter leaves the line, a cancelled running request gives its slot
 * back when its task ends, and past the most waiting or the longest wait requests get 503
 * with {@code Retry-After}; the workers' pool (as small a queue as it has threads) never
 * refuses a task.
 */
class ThumbnailSlotsTests {

	/** As the file manager makes it: a queue only as long as the threads. */
	private final BlockingScheduler workers = BlockingScheduler.create("test-slots", 2, 2);

	private final CountDownLatch gate = new CountDownLatch(1);

	/** The requests whose work was prepared (their source would be read), in order. */
	private final Queue<Integer> prepared = new ConcurrentLinkedQueue<>();

	private final AtomicInteger handled = new AtomicInteger();

	private final String hook = "test-slots-" + System.identityHashCode(this);

	@AfterEach
	void close() {
		this.gate.countDown();
		this.workers.dispose();
		Schedulers.resetOnHandleError(this.hook);
	}

	/** Request {@code id}'s work: recorded when prepared; blocks until the gate opens. */
	private Mono<Callable<Integer>> work(int id) {
		return Mono.fromCallable(() -> {
			this.prepared.add(id);
			return () -> {
				if (!this.gate.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("The gate never opened");
				}
				return id;
			};
		});
	}

	@Test
	void requestsBeyondTheSlotsWaitInTurnAndAreNotStartedMeanwhile() {
		Schedulers.onHandleError(this.hook, (thread, error) -> this.handled.incrementAndGet());
		ThumbnailSlots slots = new ThumbnailSlots(2, 100, TIMEOUT);
		int requests = 40;
		Mono<List<Integer>> all = Flux.range(0, requests)
			.flatMap(id -> slots.run(work(id), this.workers), requests)
			.collectList()
			.cache();
		all.subscribe();
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(slots.waiting()).isEqualTo(requests - 2);
			assertThat(this.prepared).containsExactlyInAnyOrder(0, 1);
		});
		this.gate.countDown();
		assertThat(all.block(TIMEOUT)).hasSize(requests);
		assertThat(this.prepared).hasSize(requests);
		// Given back as each task ends, just after its answer.
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(slots.taken()).isZero());
		assertThat(slots.waiting()).isZero();
		// The pool never refused a task (Reactor reports a refusal here too).
		assertThat(this.handled).hasValue(0);
	}

	@Test
	void waitersAreServedInTheOrderTheyCame() {
		ThumbnailSlots slots = new ThumbnailSlots(1, 100, TIMEOUT);
		List<Mono<Integer>> requests = new ArrayList<>();
		for (int id = 0; id < 10; id++) {
			Mono<Integer> request = slots.run(work(id), this.workers).cache();
			request.subscribe();
			requests.add(request);
		}
		assertThat(slots.waiting()).isEqualTo(9);
		this.gate.countDown();
		assertThat(Flux.concat(requests).collectList().block(TIMEOUT)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		assertThat(this.prepared).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	}

	@Test
	void aWaiterWhoseClientGoesAwayLeavesTheLineAtOnce() {
		ThumbnailSlots slots = new ThumbnailSlots(1, 100, TIMEOUT);
		Mono<Integer> first = slots.run(work(1), this.workers).cache();
		first.subscribe();
		await().atMost(TIMEOUT).until(() -> slots.taken() == 1 && this.prepared.size() == 1);
		Disposable gone = slots.run(work(2), this.workers).subscribe();
		Mono<Integer> third = slots.run(work(3), this.workers).cache();
		third.subscribe();
		assertThat(slots.waiting()).isEqualTo(2);
		gone.dispose();
		assertThat(slots.waiting()).isEqualTo(1);
		this.gate.countDown();
		assertThat(first.block(TIMEOUT)).isEqualTo(1);
		assertThat(third.block(TIMEOUT)).isEqualTo(3);
		assertThat(this.prepared).containsExactly(1, 3);
		// Given back as each task ends, just after its answer.
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(slots.taken()).isZero());
		assertThat(slots.waiting()).isZero();
	}

	@Test
	void aRunningRequestWhoseClientGoesAwayGivesItsSlotBackWhenItsTaskEnds() {
		ThumbnailSlots slots = new ThumbnailSlots(1, 100, TIMEOUT);
		Disposable running = slots.run(work(1), this.workers).subscribe();
		await().atMost(TIMEOUT).until(() -> this.prepared.size() == 1);
		Mono<Integer> next = slots.run(work(2), this.workers).cache();
		next.subscribe();
		running.dispose();
		// Its task still runs on a worker: the slot is not free yet.
		assertThat(slots.taken()).isEqualTo(1);
		assertThat(slots.waiting()).isEqualTo(1);
		assertThat(this.prepared).containsExactly(1);
		this.gate.countDown();
		assertThat(next.block(TIMEOUT)).isEqualTo(2);
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(slots.taken()).isZero());
		// Many requests that go away at every stage leave no slot taken.
		for (int i = 0; i < 200; i++) {
			Disposable request = slots.run(work(100 + i), this.workers).subscribe();
			if (i % 3 != 0) {
				request.dispose();
			}
		}
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(slots.taken()).isZero();
			assertThat(slots.waiting()).isZero();
		});
	}

	@Test
	void pastTheMostWaitingOrTheLongestWaitRequestsGet503AndAreNeverStarted() {
		ThumbnailSlots slots = new ThumbnailSlots(1, 1, Duration.ofMillis(300));
		Mono<Integer> first = slots.run(work(1), this.workers).cache();
		first.subscribe();
		await().atMost(TIMEOUT).until(() -> this.prepared.size() == 1);
		Mono<Integer> waiting = slots.run(work(2), this.workers).cache();
		waiting.subscribe(id -> {
		}, busy -> {
		});
		assertThat(slots.waiting()).isEqualTo(1);
		// The line is full.
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> slots.run(work(3), this.workers).block(TIMEOUT))
			.satisfies(busy -> {
				assertThat(busy.status().value()).isEqualTo(503);
				assertThat(busy.retryAfter()).isEqualTo(ThumbnailSlots.RETRY_AFTER);
			});
		// The wait is too long.
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> waiting.block(TIMEOUT))
			.satisfies(busy -> assertThat(busy.status().value()).isEqualTo(503));
		assertThat(slots.waiting()).isZero();
		this.gate.countDown();
		assertThat(first.block(TIMEOUT)).isEqualTo(1);
		assertThat(this.prepared).containsExactly(1);
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(slots.taken()).isZero());
		assertThat(slots.run(work(4), this.workers).block(TIMEOUT)).isEqualTo(4);
	}

}
