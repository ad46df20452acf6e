package dev.wharf.core.security;

import java.time.Duration;

import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LoginThrottle}.
 */
class LoginThrottleTests {

	final MutableClock clock = new MutableClock();

	final LoginThrottle throttle = new LoginThrottle(this.clock);

	@Test
	void locksAnAccountFromOneAddressAfterAFewFailuresWithGrowingDelays() {
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).isEmpty();
			this.throttle.failed("alice", "10.0.0.1");
		}
		this.throttle.failed("alice", "10.0.0.1");
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).contains(Duration.ofSeconds(1));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).isEmpty();
		this.throttle.failed("alice", "10.0.0.1");
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).contains(Duration.ofSeconds(2));
	}

	@Test
	void otherAddressesAndOtherAccountsAreNotAffected() {
		for (int i = 0; i < 10; i++) {
			this.throttle.failed("alice", "10.0.0.1");
		}
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).isPresent();
		assertThat(this.throttle.retryAfter("alice", "10.0.0.2")).isEmpty();
		assertThat(this.throttle.retryAfter("bob", "10.0.0.1")).isEmpty();
	}

	@Test
	void oneAddressTryingManyAccountsIsLocked() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ADDRESS; i++) {
			this.throttle.failed("user" + i, "10.0.0.9");
		}
		assertThat(this.throttle.retryAfter("someone-else", "10.0.0.9")).isPresent();
		assertThat(this.throttle.retryAfter("someone-else", "10.0.0.10")).isEmpty();
	}

	@Test
	void manyAddressesTryingOneAccountLockIt() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT; i++) {
			this.throttle.failed("target", "10.1.0." + i);
		}
		assertThat(this.throttle.retryAfter("target", "10.2.0.1")).isPresent();
	}

	@Test
	void locksAreCappedAndForgotten() {
		for (int i = 0; i < 100; i++) {
			this.throttle.failed("alice", "10.0.0.1");
		}
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).contains(LoginThrottle.MAX_LOCK);
		this.clock.advance(LoginThrottle.FORGET_AFTER.plusSeconds(1));
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).isEmpty();
		this.throttle.failed("alice", "10.0.0.1");
		assertThat(this.throttle.retryAfter("alice", "10.0.0.1")).isEmpty();
	}

	@Test
	void successClearsTheAccountButNotTheAddress() {
		for (int i = 0; i <= LoginThrottle.FREE_PER_ADDRESS; i++) {
			this.throttle.failed("user" + i, "10.0.0.9");
		}
		this.throttle.succeeded("user1", "10.0.0.9");
		assertThat(this.throttle.retryAfter("user1", "10.0.0.9")).isPresent();
	}

}
