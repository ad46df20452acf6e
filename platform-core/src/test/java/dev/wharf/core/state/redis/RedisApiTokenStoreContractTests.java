package dev.wharf.core.state.redis;

import java.time.Duration;

import dev.wharf.core.session.AbstractApiTokenStoreContractTests;
import dev.wharf.core.session.ApiTokenStore;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.core.session.ApiTokens.IssuedToken;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.state.redis.RedisTestReplicas.Replica;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The token store contract on a real Redis, each "replica" with a client and a cache of
 * its own; and what only the Redis store keeps there: digests, never a token, expiring
 * with the token.
 */
class RedisApiTokenStoreContractTests extends AbstractApiTokenStoreContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@RegisterExtension
	final RedisTestReplicas replicas = new RedisTestReplicas(redis);

	@Override
	protected ApiTokenStore store() {
		return store(RedisSessionStore.CACHE_TIME);
	}

	private ApiTokenStore store(Duration cacheTime) {
		Replica replica = this.replicas.replica();
		return new RedisApiTokenStore(replica.state(), replica.invalidations(), replica.invalidations().channel(),
				cacheTime, this.clock);
	}

	@Override
	protected Duration propagation() {
		return RedisSessionStore.CACHE_TIME;
	}

	@Test
	void onlyDigestsAreStoredExpiringWithTheirTokens() throws Exception {
		ApiTokens tokens = new ApiTokens(store(), this.clock);
		IssuedToken issued = tokens.issue(this.alice, "ci", Duration.ofDays(7)).block(TIMEOUT);
		String key = "wharf:token:" + issued.token().digest();
		assertThat(redis.server().keys("wharf:*")).containsExactlyInAnyOrder(key, "wharf:tokens-of:alice");
		assertThat((String) redis.server().command("GET", key)).doesNotContain(issued.secret().substring(6))
			.startsWith(issued.token().id() + "\talice\t");
		assertThat((Long) redis.server().command("PTTL", key)).isPositive()
			.isLessThanOrEqualTo(Duration.ofDays(7).toMillis());
		assertThat((String) redis.server().command("HGET", "wharf:tokens-of:alice", issued.token().id()))
			.isEqualTo(issued.token().digest());
	}

	@Test
	void aRevocationLeavesEveryReplicasCacheAtOnce() {
		ApiTokens here = new ApiTokens(store(Duration.ofMinutes(10)), this.clock);
		ApiTokens there = new ApiTokens(store(Duration.ofMinutes(10)), this.clock);
		IssuedToken issued = here.issue(this.alice, "ci", null).block(TIMEOUT);
		assertThat(there.authenticate(issued.secret()).block(TIMEOUT)).isNotNull();
		here.revoke("alice", issued.token().id()).block(TIMEOUT);
		await().atMost(Duration.ofMillis(900)).until(() -> there.authenticate(issued.secret()).block(TIMEOUT) == null);
	}

	@Test
	void whileRedisIsDownTokensAreUnavailableNotUnknown() throws Exception {
		ApiTokens tokens = new ApiTokens(store(Duration.ofMillis(1)), this.clock);
		IssuedToken issued = tokens.issue(this.alice, "ci", null).block(TIMEOUT);
		redis.server().stop();
		assertThatThrownBy(() -> tokens.authenticate(issued.secret()).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		redis.server().start();
		await().atMost(TIMEOUT)
			.ignoreExceptions()
			.until(() -> tokens.authenticate(issued.secret()).block(TIMEOUT) != null);
	}

}
