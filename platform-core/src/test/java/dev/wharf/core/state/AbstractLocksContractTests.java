package dev.wharf.core.state;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.state.Locks.Lock;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link Locks} does, whether in this process or shared: one holder at a time,
 * a lock runs out unless renewed, and a holder whose lock ran out can neither renew nor
 * release the next holder's.
 */
public abstract class AbstractLocksContractTests {

	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	/**
	 * The locks under test; two calls may return two replicas' views of the same locks.
	 */
	protected abstract Locks locks();

	@Test
	void oneHolderAtATimeUntilReleased() {
		Locks here = locks();
		Locks there = locks();
		Lock lock = here.tryLock("a", Duration.ofMinutes(1)).block(TIMEOUT);
		assertThat(lock).isNotNull();
		assertThat(there.tryLock("a", Duration.ofMinutes(1)).block(TIMEOUT)).as("held").isNull();
		assertThat(there.tryLock("b", Duration.ofMinutes(1)).block(TIMEOUT)).as("another name").isNotNull();
		lock.release().block(TIMEOUT);
		assertThat(there.tryLock("a", Duration.ofMinutes(1)).block(TIMEOUT)).as("released").isNotNull();
	}

	@Test
	void aLockRunsOutUnlessRenewedAndTheOldHolderCannotTouchTheNewOne() {
		Locks here = locks();
		Locks there = locks();
		Lock first = here.tryLock("c", Duration.ofMillis(300)).block(TIMEOUT);
		assertThat(first).isNotNull();
		assertThat(first.renew().block(TIMEOUT)).isTrue();
		Lock second = await().atMost(TIMEOUT)
			.until(() -> there.tryLock("c", Duration.ofMinutes(1)).block(TIMEOUT), taken -> taken != null);
		assertThat(first.renew().block(TIMEOUT)).as("ran out").isFalse();
		first.release().block(TIMEOUT);
		assertThat(here.tryLock("c", Duration.ofMinutes(1)).block(TIMEOUT)).as("still the second holder's").isNull();
		second.release().block(TIMEOUT);
		assertThat(here.tryLock("c", Duration.ofMinutes(1)).block(TIMEOUT)).isNotNull();
	}

	@Test
	void workRunsUnderALockThatIsRenewedWhileItRunsAndReleasedAfter() {
		Locks here = locks();
		Locks there = locks();
		AtomicReference<Lock> during = new AtomicReference<>();
		// The work outlasts the time to live 2.5 times, so only renewals keep the lock; a
		// time to live of a second leaves renewals (every third of it) room for the
		// pauses
		// of a loaded machine, where 300 ms once ran out between two of them.
		String result = here
			.whileLocked("d", Duration.ofMillis(1000),
					() -> Mono.delay(Duration.ofMillis(2500))
						.then(there.tryLock("d", Duration.ofMinutes(1)).doOnNext(during::set))
						.thenReturn("done"),
					IllegalStateException::new)
			.block(TIMEOUT);
		assertThat(result).isEqualTo("done");
		assertThat(during.get()).as("renewed past its time to live while the work ran").isNull();
		assertThat(there.tryLock("d", Duration.ofMinutes(1)).block(TIMEOUT)).as("released before the result came")
			.isNotNull();
	}

	@Test
	void aFailedWorksLockIsReleasedBeforeItsErrorArrives() {
		Locks here = locks();
		for (int i = 0; i < 20; i++) {
			assertThatThrownBy(() -> here
				.whileLocked("f", Duration.ofMinutes(1), () -> Mono.error(new IllegalArgumentException("refused")),
						IllegalStateException::new)
				.block(TIMEOUT)).isInstanceOf(IllegalArgumentException.class);
		}
	}

	@Test
	void workOnAHeldLockFailsAtOnceWithTheGivenError() {
		Locks here = locks();
		assertThat(here.tryLock("e", Duration.ofMinutes(1)).block(TIMEOUT)).isNotNull();
		assertThatThrownBy(() -> locks()
			.whileLocked("e", Duration.ofMinutes(1), () -> Mono.just("never"), () -> new IllegalStateException("busy"))
			.block(TIMEOUT)).hasMessage("busy");
	}

}
