package dev.wharf.core.state.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import dev.wharf.core.security.AbstractLoginThrottleContractTests;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.testsupport.MutableClock;
import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The throttle's rules on a real Redis, each "replica" with a client of its own; and what
 * it keeps there.
 */
class RedisLoginThrottleContractTests extends AbstractLoginThrottleContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	private RedisClients clients;

	@AfterEach
	void disconnect() {
		if (this.clients != null) {
			this.clients.close();
			this.clients = null;
		}
	}

	@Override
	protected LoginThrottle throttle(MutableClock clock) {
		if (this.clients == null) {
			try {
				redis.server().flushAll();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.clients = new RedisClients(redis.server());
		}
		return new RedisLoginThrottle(this.clients.state("wharf:"), clock);
	}

	@Test
	void bucketsAreKeysNamedByDigestsThatExpire() throws Exception {
		LoginThrottle throttle = throttle(this.clock);
		String longName = "x".repeat(100_000);
		throttle.failed(longName, "10.0.0.1").block(Duration.ofSeconds(10));
		List<String> keys = redis.server().keys("wharf:*");
		assertThat(keys).hasSize(3).allMatch(key -> key.startsWith("wharf:throttle:") && key.length() < 80);
		assertThat(keys).anyMatch(key -> key.startsWith("wharf:throttle:account-and-address:"))
			.anyMatch(key -> key.startsWith("wharf:throttle:address:"))
			.anyMatch(key -> key.startsWith("wharf:throttle:account:"));
		for (String key : keys) {
			assertThat((Long) redis.server().command("PTTL", key)).isPositive()
				.isLessThanOrEqualTo(LoginThrottle.FORGET_AFTER.toMillis());
		}
	}

}
