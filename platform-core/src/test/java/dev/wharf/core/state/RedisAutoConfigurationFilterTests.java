package dev.wharf.core.state;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisAutoConfigurationFilter}.
 */
class RedisAutoConfigurationFilterTests {

	private static final String[] CANDIDATES = {
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
			"dev.wharf.core.state.StateAutoConfiguration", null };

	@Test
	void redisAutoConfigurationsAreLeftOutUnlessTheStoreIsRedis() {
		assertThat(match(new MockEnvironment())).containsExactly(false, false, true, true);
		assertThat(match(new MockEnvironment().withProperty("wharf.state.store", "local"))).containsExactly(false,
				false, true, true);
		assertThat(match(new MockEnvironment().withProperty("wharf.state.store", "REDIS "))).containsExactly(true, true,
				true, true);
	}

	private static boolean[] match(MockEnvironment environment) {
		RedisAutoConfigurationFilter filter = new RedisAutoConfigurationFilter();
		filter.setEnvironment(environment);
		return filter.match(CANDIDATES, null);
	}

}
