package dev.wharf.core.security;

import java.time.Duration;
import java.util.Optional;

import dev.wharf.core.testsupport.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of every {@link LoginThrottle}, in this process or shared by replicas, on a
 * clock moved by hand.
 */
public abstract class AbstractLoginThrottleContractTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	protected final MutableClock clock = new MutableClock();

	private LoginThrottle throttle;

	/**
	 * A throttle on the clock; a second call gives another replica's view of the same
	 * buckets.
	 * @param clock the time source
	 * @return the throttle
	 */
	protected abstract LoginThrottle throttle(MutableClock clock);

	@BeforeEach
	void createThrottle() {
		this.throttle = throttle(this.clock);
	}

	@Test
	void failuresSpreadOverReplicasCountTogether() {
		LoginThrottle other = throttle(this.clock);
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			((i % 2 == 0) ? this.throttle : other).failed("alice", "10.0.0.1").block(TIMEOUT);
		}
		assertThat(other.retryAfter("alice", "10.0.0.1").block(TIMEOUT)).isZero();
		failed("alice", "10.0.0.1");
		assertThat(other.retryAfter("alice", "10.0.0.1").block(TIMEOUT)).isEqualTo(LoginThrottle.FIRST_LOCK);
		other.succeeded("alice", "10.0.0.1").block(TIMEOUT);
		assertThat(retryAfter("alice", "10.0.0.1")).isEmpty();
	}

	@Test
	void locksAnAccountFromOneAddressAfterAFewFailuresWithGrowingDelays() {
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			assertThat(retryAfter("alice", "10.0.0.1")).isEmpty();
			failed("alice", "10.0.0.1");
		}
		failed("alice", "10.0.0.1");
		assertThat(retryAfter("alice", "10.0.0.1")).contains(Duration.ofSeconds(1));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(retryAfter("alice", "10.0.0.1")).isEmpty();
		failed("alice", "10.0.0.1");
		assertThat(retryAfter("alice", "10.0.0.1")).contains(Duration.ofSeconds(2));
	}

	@Test
	void otherAddressesAndOtherAccountsAreNotAffected() {
		for (int i = 0; i < 10; i++) {
			failed("alice", "10.0.0.1");
		}
		assertThat(retryAfter("alice", "10.0.0.1")).isPresent();
		assertThat(retryAfter("alice", "10.0.0.2")).isEmpty();
		assertThat(retryAfter("bob", "10.0.0.1")).isEmpty();
	}

	@Test
	void oneAddressTryingManyAccountsIsLocked() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ADDRESS; i++) {
			failed("user" + i, "10.0.0.9");
		}
		assertThat(retryAfter("someone-else", "10.0.0.9")).isPresent();
		assertThat(retryAfter("someone-else", "10.0.0.10")).isEmpty();
	}

	@Test
	void manyAddressesTryingOneAccountLockIt() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT; i++) {
			failed("target", "10.1.0." + i);
		}
		assertThat(retryAfter("target", "10.2.0.1")).isPresent();
	}

	@Test
	void locksAreCappedAndForgotten() {
		for (int i = 0; i < 100; i++) {
			failed("alice", "10.0.0.1");
		}
		assertThat(retryAfter("alice", "10.0.0.1")).contains(LoginThrottle.MAX_LOCK);
		this.clock.advance(LoginThrottle.FORGET_AFTER.plusSeconds(1));
		assertThat(retryAfter("alice", "10.0.0.1")).isEmpty();
		failed("alice", "10.0.0.1");
		assertThat(retryAfter("alice", "10.0.0.1")).isEmpty();
	}

	@Test
	void successClearsTheAccountButNotTheAddress() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ADDRESS; i++) {
			failed("user" + i, "10.0.0.9");
		}
		this.throttle.succeeded("user1", "10.0.0.9").block(TIMEOUT);
		assertThat(retryAfter("user1", "10.0.0.9")).isPresent();
	}

	private Optional<Duration> retryAfter(String account, @Nullable String address) {
		Duration wait = this.throttle.retryAfter(account, address).block(TIMEOUT);
		Duration atHand = this.throttle.retryAfterAtHand(account, address);
		if (atHand != null) {
			// Optional, but never another answer.
			assertThat(atHand).as("at hand").isEqualTo(wait);
		}
		return wait.isZero() ? Optional.empty() : Optional.of(wait);
	}

	private void failed(String account, @Nullable String address) {
		this.throttle.failed(account, address).block(TIMEOUT);
	}

}
