package dev.wharf.core.state.redis;

import java.time.Duration;
import java.util.List;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.session.AbstractSessionsContractTests;
import dev.wharf.core.session.NewSessionLimits;
import dev.wharf.core.session.SessionProperties.NewSessions;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.session.Sessions.NewSession;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.state.redis.RedisTestReplicas.Replica;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The sessions contract on a real Redis, each "replica" with a client and a cache of its
 * own; and what only the Redis store does: the keys it keeps (digests, expiries, no
 * credentials), invalidation of every replica's cache at once, and "unavailable", never
 * "no session", while Redis is down.
 */
class RedisSessionsContractTests extends AbstractSessionsContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@RegisterExtension
	final RedisTestReplicas replicas = new RedisTestReplicas(redis);

	@Override
	protected SessionStore store() {
		return store(RedisSessionStore.CACHE_TIME);
	}

	private RedisSessionStore store(Duration cacheTime) {
		Replica replica = this.replicas.replica();
		return new RedisSessionStore(replica.state(), replica.invalidations(), replica.invalidations().channel(),
				cacheTime, Duration.ofHours(12));
	}

	@Override
	protected NewSessionLimits limits(NewSessions newSessions) {
		return new RedisNewSessionLimits(this.replicas.replica().state(), newSessions, this.clock);
	}

	@Override
	protected Duration propagation() {
		return RedisSessionStore.CACHE_TIME;
	}

	@Test
	void keysAreDigestsWithTheSessionsLifetimeAndNeverHoldCredentials() throws Exception {
		NewSession created = this.sessions.create(this.alice, "10.0.0.1", new Credentials("alice", "pw-123"))
			.block(TIMEOUT);
		assertThat(redis.server().keys("wharf:*")).containsExactlyInAnyOrder("wharf:sessions-of:alice",
				"wharf:session:" + created.session().key());
		String value = (String) redis.server().command("GET", "wharf:session:" + created.session().key());
		assertThat(value).endsWith("\t10.0.0.1\talice").doesNotContain("pw-123").doesNotContain(created.secret());
		assertThat((Long) redis.server().command("PTTL", "wharf:session:" + created.session().key())).isPositive()
			.isLessThanOrEqualTo(Duration.ofHours(1).toMillis());
		assertThat(this.sessions.find(created.secret()).block(TIMEOUT).credentials())
			.as("kept in the memory of the replica that made the session")
			.isEqualTo(new Credentials("alice", "pw-123"));
		assertThat(sessions(store(), 100, NO_RATE).find(created.secret()).block(TIMEOUT).credentials())
			.as("another replica never sees them")
			.isNull();
	}

	@Test
	void anEndedSessionLeavesEveryReplicasCacheAtOnce() {
		Sessions here = sessions(store(Duration.ofMinutes(10)), 100, NO_RATE);
		Sessions there = sessions(store(Duration.ofMinutes(10)), 100, NO_RATE);
		NewSession one = here.create(this.alice, null, null).block(TIMEOUT);
		NewSession two = here.create(this.alice, null, null).block(TIMEOUT);
		assertThat(there.find(one.secret()).block(TIMEOUT)).isNotNull();
		assertThat(there.find(two.secret()).block(TIMEOUT)).isNotNull();
		here.revoke(one.secret()).block(TIMEOUT);
		await().atMost(Duration.ofMillis(900)).until(() -> there.find(one.secret()).block(TIMEOUT) == null);
		here.revokeAll("alice").block(TIMEOUT);
		await().atMost(Duration.ofMillis(900)).until(() -> there.find(two.secret()).block(TIMEOUT) == null);
	}

	@Test
	void whileRedisIsDownSessionsAreUnavailableNotGone() throws Exception {
		Sessions uncached = sessions(store(Duration.ofMillis(1)), 100, NO_RATE);
		NewSession created = uncached.create(this.alice, null, null).block(TIMEOUT);
		redis.server().stop();
		assertThatThrownBy(() -> uncached.find(created.secret()).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		assertThatThrownBy(() -> uncached.create(this.bob, null, null).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		assertThatThrownBy(() -> uncached.revoke(created.secret()).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		redis.server().start();
		await().atMost(TIMEOUT).ignoreExceptions().until(() -> uncached.find(created.secret()).block(TIMEOUT) != null);
		assertThat(uncached.list("alice").collectList().block(TIMEOUT)).hasSize(1);
	}

	@Test
	void theUsersIndexDropsSessionsThatExpired() throws Exception {
		SessionStore store = store();
		NewSession created = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		redis.server().command("DEL", "wharf:session:" + created.session().key());
		this.sessions.create(this.alice, null, null).block(TIMEOUT);
		assertThat((List<?>) redis.server().command("ZRANGE", "wharf:sessions-of:alice", "0", "-1")).hasSize(1);
		assertThat(store.findAll("alice").collectList().block(TIMEOUT)).hasSize(1);
	}

}
