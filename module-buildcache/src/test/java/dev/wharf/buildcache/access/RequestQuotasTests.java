package dev.wharf.buildcache.access;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestQuotas}.
 */
class RequestQuotasTests {

	private final MutableClock clock = new MutableClock();

	private static CacheCaller caller(String name, String address) {
		return new CacheCaller(new User(name, Set.of(Role.CACHE_READER), Map.of()), address);
	}

	@Test
	void eachUserHasABucketOfTheConfiguredSize() {
		RequestQuotas quotas = new RequestQuotas(3, Duration.ofMinutes(1), 0, Duration.ofMinutes(1), this.clock);
		for (int i = 0; i < 3; i++) {
			assertThat(quotas.take(caller("alice", "10.0.0." + i))).isEmpty();
		}
		// The fourth request waits for a token: a third of the minute.
		assertThat(quotas.take(caller("alice", "10.0.0.9")))
			.hasValueSatisfying(wait -> assertThat(wait).isCloseTo(Duration.ofSeconds(20), Duration.ofMillis(1)));
		assertThat(quotas.take(caller("bob", "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(new CacheCaller(null, "10.0.0.1"))).isEmpty();
	}

	@Test
	void eachAddressHasABucketWhoeverAsks() {
		RequestQuotas quotas = new RequestQuotas(0, Duration.ofMinutes(1), 2, Duration.ofSeconds(10), this.clock);
		assertThat(quotas.take(caller("alice", "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(new CacheCaller(null, "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(caller("bob", "10.0.0.1"))).isPresent();
		assertThat(quotas.take(caller("bob", "10.0.0.2"))).isEmpty();
	}

	@Test
	void tokensComeBackOverTime() {
		RequestQuotas quotas = new RequestQuotas(1, Duration.ofSeconds(10), 0, Duration.ofMinutes(1), this.clock);
		assertThat(quotas.take(caller("alice", null))).isEmpty();
		assertThat(quotas.take(caller("alice", null)))
			.hasValueSatisfying(wait -> assertThat(wait).isCloseTo(Duration.ofSeconds(10), Duration.ofMillis(1)));
		this.clock.advance(Duration.ofSeconds(4));
		Optional<Duration> wait = quotas.take(caller("alice", null));
		assertThat(wait)
			.hasValueSatisfying(left -> assertThat(left).isCloseTo(Duration.ofSeconds(6), Duration.ofMillis(1)));
		// After the wait it gave, to the nanosecond, the token is back.
		this.clock.advance(wait.orElseThrow());
		assertThat(quotas.take(caller("alice", null))).isEmpty();
		assertThat(quotas.take(caller("alice", null))).isPresent();
	}

	@Test
	void aClockSetBackTakesNoTokens() {
		RequestQuotas quotas = new RequestQuotas(2, Duration.ofSeconds(10), 0, Duration.ofMinutes(1), this.clock);
		assertThat(quotas.take(caller("alice", null))).isEmpty();
		this.clock.advance(Duration.ofSeconds(-30));
		assertThat(quotas.take(caller("alice", null))).isEmpty();
		assertThat(quotas.take(caller("alice", null))).isPresent();
	}

	@Test
	void withoutLimitsNothingIsCounted() {
		RequestQuotas quotas = new RequestQuotas(0, Duration.ofMinutes(1), 0, Duration.ofMinutes(1), this.clock);
		assertThat(quotas.isLimited()).isFalse();
		for (int i = 0; i < 1000; i++) {
			assertThat(quotas.take(caller("alice", "10.0.0.1"))).isEmpty();
		}
	}

}
