package dev.wharf.core.security;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import dev.wharf.core.security.ExternalUser.Source;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link ExternalUserStore} does, for one replica and for replicas sharing the
 * store: a saved user is found with every group intact, by this replica at once and by
 * the others within {@link #propagation()}; a removal is seen likewise; a replica started
 * later finds the users saved before.
 */
public abstract class AbstractExternalUserStoreContractTests {

	/** How long a command may take. */
	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Groups that a careless line format would break: tabs, line breaks, percent signs,
	 * non-ASCII, spaces.
	 */
	private static final Set<String> AWKWARD_GROUPS = Set.of("staff", "tab\there", "new\nline", "per%cent", "Grüße",
			"a b", "plus+sign");

	/**
	 * A store, on state every store this method returns during one test shares, as
	 * replicas do.
	 * @return a new store; the test class closes it
	 */
	protected abstract ExternalUserStore store();

	/** How long a change on one replica may take to reach another's lookups. */
	protected abstract Duration propagation();

	private static ExternalUser user(String name, Set<String> groups) {
		return new ExternalUser(name, Source.LDAP, groups, Instant.ofEpochMilli(1_700_000_000_123L));
	}

	@Test
	void aSavedUserIsFoundAtOnceWithItsGroupsAndARemovedOneIsGone() {
		ExternalUserStore store = store();
		assertThat(store.find("alice")).isEmpty();
		ExternalUser alice = user("alice", AWKWARD_GROUPS);
		store.save(alice).block(TIMEOUT);
		assertThat(store.find("alice")).contains(alice);
		ExternalUser changed = new ExternalUser("alice", Source.OIDC, Set.of("other"), Instant.ofEpochMilli(5));
		store.save(changed).block(TIMEOUT);
		assertThat(store.find("alice")).contains(changed);
		store.remove("alice").block(TIMEOUT);
		assertThat(store.find("alice")).isEmpty();
		store.remove("alice").block(TIMEOUT);
	}

	@Test
	void anotherReplicaSeesASaveAndARemoval() {
		ExternalUserStore here = store();
		ExternalUserStore there = store();
		ExternalUser bob = user("bob", AWKWARD_GROUPS);
		here.save(bob).block(TIMEOUT);
		await().atMost(propagation()).until(() -> there.find("bob").isPresent());
		assertThat(there.find("bob")).contains(bob);
		here.remove("bob").block(TIMEOUT);
		await().atMost(propagation()).until(() -> there.find("bob").isEmpty());
	}

	@Test
	void aReplicaStartedLaterFindsTheUsersSavedBefore() {
		ExternalUserStore first = store();
		ExternalUser carol = user("carol.smith@example.com", Set.of("staff"));
		first.save(carol).block(TIMEOUT);
		first.save(user("dave", Set.of())).block(TIMEOUT);
		first.remove("dave").block(TIMEOUT);
		ExternalUserStore later = store();
		await().atMost(propagation()).until(() -> later.find(carol.name()).isPresent());
		assertThat(later.find(carol.name())).contains(carol);
		assertThat(later.find("dave")).isEmpty();
	}

}
