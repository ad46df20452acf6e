package dev.wharf.core.state.redis;

import java.time.Duration;

import dev.wharf.core.share.AbstractShareStoreContractTests;
import dev.wharf.core.share.Share;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The share store contract on a real Redis, each "replica" with a client of its own; and
 * what only the Redis store does: the keys it keeps, and "unavailable" rather than
 * "unknown" while Redis is down.
 */
class RedisShareStoreContractTests extends AbstractShareStoreContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@RegisterExtension
	final RedisTestReplicas replicas = new RedisTestReplicas(redis);

	@Override
	protected ShareStore store() {
		return new RedisShareStore(this.replicas.replica().state());
	}

	@Override
	protected Duration propagation() {
		return Duration.ZERO;
	}

	@Test
	void aShareIsOneHashAndAnIndexEntryWithoutExpiry() throws Exception {
		ShareStore store = store();
		Share share = share("alice", 3);
		store.put(share).block(TIMEOUT);
		store.countDownload(share.id()).block(TIMEOUT);
		String key = "wharf:share:" + share.id();
		assertThat(redis.server().keys("wharf:*")).containsExactlyInAnyOrder(key, "wharf:shares-of:alice");
		assertThat((String) redis.server().command("HGET", key, "downloads")).isEqualTo("1");
		assertThat((String) redis.server().command("HGET", key, "max")).isEqualTo("3");
		assertThat((Long) redis.server().command("PTTL", key)).as("an expired share must still be known").isEqualTo(-1);
	}

	@Test
	void whileRedisIsDownSharesAreUnavailableNotUnknown() throws Exception {
		ShareStore store = store();
		Share share = share("alice", 0);
		store.put(share).block(TIMEOUT);
		redis.server().stop();
		assertThatThrownBy(() -> store.find(share.id()).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		redis.server().start();
		await().atMost(TIMEOUT).ignoreExceptions().until(() -> store.find(share.id()).block(TIMEOUT) != null);
	}

}
