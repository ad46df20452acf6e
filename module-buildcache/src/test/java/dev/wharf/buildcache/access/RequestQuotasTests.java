package dev.wharf.buildcache.access;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestQuotas}.
 */
class RequestQuotasTests {

	private static CacheCaller caller(String name, String address) {
		return new CacheCaller(new User(name, Set.of(Role.CACHE_READER), Map.of()), address);
	}

	@Test
	void eachUserHasABucketOfTheConfiguredSize() {
		RequestQuotas quotas = new RequestQuotas(3, Duration.ofMinutes(1), 0, Duration.ofMinutes(1));
		for (int i = 0; i < 3; i++) {
			assertThat(quotas.take(caller("alice", "10.0.0." + i))).isEmpty();
		}
		// The fourth request waits for a token: a third of the minute.
		assertThat(quotas.take(caller("alice", "10.0.0.9"))).hasValueSatisfying(
				wait -> assertThat(wait).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20)));
		assertThat(quotas.take(caller("bob", "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(new CacheCaller(null, "10.0.0.1"))).isEmpty();
	}

	@Test
	void eachAddressHasABucketWhoeverAsks() {
		RequestQuotas quotas = new RequestQuotas(0, Duration.ofMinutes(1), 2, Duration.ofSeconds(10));
		assertThat(quotas.take(caller("alice", "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(new CacheCaller(null, "10.0.0.1"))).isEmpty();
		assertThat(quotas.take(caller("bob", "10.0.0.1"))).isPresent();
		assertThat(quotas.take(caller("bob", "10.0.0.2"))).isEmpty();
	}

	@Test
	void tokensComeBackOverTime() throws Exception {
		RequestQuotas quotas = new RequestQuotas(1, Duration.ofMillis(200), 0, Duration.ofMinutes(1));
		assertThat(quotas.take(caller("alice", null))).isEmpty();
		assertThat(quotas.take(caller("alice", null))).isPresent();
		Thread.sleep(400);
		assertThat(quotas.take(caller("alice", null))).isEmpty();
	}

	@Test
	void withoutLimitsNothingIsCounted() {
		RequestQuotas quotas = new RequestQuotas(0, Duration.ofMinutes(1), 0, Duration.ofMinutes(1));
		assertThat(quotas.isLimited()).isFalse();
		for (int i = 0; i < 1000; i++) {
			assertThat(quotas.take(caller("alice", "10.0.0.1"))).isEmpty();
		}
	}

}
