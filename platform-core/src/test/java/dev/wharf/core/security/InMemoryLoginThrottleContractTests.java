package dev.wharf.core.security;

import java.time.Duration;

import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The throttle's rules in this process: both "replicas" are the same throttle, as on one
 * node.
 */
class InMemoryLoginThrottleContractTests extends AbstractLoginThrottleContractTests {

	private InMemoryLoginThrottle throttle;

	@Override
	protected LoginThrottle throttle(MutableClock clock) {
		if (this.throttle == null) {
			this.throttle = new InMemoryLoginThrottle(clock);
		}
		return this.throttle;
	}

	@Test
	void theAnswerIsAlwaysAtHand() {
		LoginThrottle throttle = throttle(this.clock);
		assertThat(throttle.retryAfterAtHand("alice", "10.0.0.1")).isZero();
		for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			throttle.failed("alice", "10.0.0.1").block(Duration.ofSeconds(10));
		}
		assertThat(throttle.retryAfterAtHand("alice", "10.0.0.1")).isEqualTo(LoginThrottle.FIRST_LOCK);
		assertThat(throttle.retryAfterAtHand("alice", null)).isZero();
		assertThat(throttle.retryAfterAtHand("bob", "10.0.0.2")).isZero();
	}

}
