package dev.wharf.core.state.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.wharf.core.security.AbstractExternalUserStoreContractTests;
import dev.wharf.core.security.ExternalUser;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.state.redis.RedisTestReplicas.Replica;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The external user store contract on a real Redis, each "replica" with a client, a
 * subscription and a copy of its own; and what only the Redis store does: the
 * announcement carries the user (no full read needed), a full read brings back what a
 * replica missed, and lookups go on from memory while Redis is down.
 */
class RedisExternalUserStoreContractTests extends AbstractExternalUserStoreContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@RegisterExtension
	final RedisTestReplicas replicas = new RedisTestReplicas(redis);

	private final List<RedisExternalUserStore> stores = new ArrayList<>();

	@AfterEach
	void closeStores() {
		this.stores.forEach(RedisExternalUserStore::close);
	}

	@Override
	protected ExternalUserStore store() {
		return store(Duration.ofMillis(200));
	}

	private RedisExternalUserStore store(Duration refresh) {
		Replica replica = this.replicas.replica();
		RedisExternalUserStore store = new RedisExternalUserStore(replica.state(), replica.invalidations(), refresh);
		this.stores.add(store);
		return store;
	}

	@Override
	protected Duration propagation() {
		return Duration.ofSeconds(5);
	}

	private static ExternalUser erin() {
		return new ExternalUser("erin", Source.OIDC, Set.of("staff", "a b"), Instant.ofEpochMilli(42));
	}

	@Test
	void anotherReplicaLearnsASignInFromTheAnnouncementWithoutReadingRedisAgain() throws Exception {
		RedisExternalUserStore here = store(Duration.ofHours(1));
		RedisExternalUserStore there = store(Duration.ofHours(1));
		here.save(erin()).block(TIMEOUT);
		await().atMost(Duration.ofSeconds(2)).until(() -> there.find("erin").isPresent());
		assertThat(there.find("erin")).contains(erin());
		assertThat((String) redis.server().command("HGET", "wharf:external-users", "erin")).isEqualTo(erin().toLine());
		here.remove("erin").block(TIMEOUT);
		await().atMost(Duration.ofSeconds(2)).until(() -> there.find("erin").isEmpty());
	}

	@Test
	void aReplicasOwnAnnouncementsComingBackNeverUndoItsLaterSaves() {
		RedisExternalUserStore store = store(Duration.ofHours(1));
		for (int i = 0; i < 300; i++) {
			ExternalUser version = new ExternalUser("erin", Source.OIDC, Set.of("group" + i), Instant.ofEpochMilli(i));
			store.save(version).block(TIMEOUT);
			assertThat(store.find("erin")).contains(version);
		}
	}

	@Test
	void aFullReadBringsBackWhatAReplicaMissed() throws Exception {
		RedisExternalUserStore store = store(Duration.ofMillis(100));
		redis.server().command("HSET", "wharf:external-users", "erin", erin().toLine(), "junk", "not a user");
		await().atMost(propagation()).until(() -> store.find("erin").isPresent());
		assertThat(store.find("junk")).isEmpty();
		redis.server().command("HDEL", "wharf:external-users", "erin");
		await().atMost(propagation()).until(() -> store.find("erin").isEmpty());
	}

	@Test
	void whileRedisIsDownKnownUsersAreStillFoundAndChangesFailAsUnavailable() {
		RedisExternalUserStore store = store(Duration.ofMillis(100));
		store.save(erin()).block(TIMEOUT);
		redis.server().stop();
		assertThatThrownBy(
				() -> store.save(new ExternalUser("frank", Source.LDAP, Set.of(), Instant.EPOCH)).block(TIMEOUT))
			.isInstanceOf(SharedStateUnavailableException.class);
		assertThat(store.find("frank")).isEmpty();
		// Full reads fail every 100 ms meanwhile; the copy stays.
		await().during(Duration.ofMillis(600))
			.atMost(TIMEOUT)
			.until(() -> store.find("erin").equals(Optional.of(erin())));
	}

}
