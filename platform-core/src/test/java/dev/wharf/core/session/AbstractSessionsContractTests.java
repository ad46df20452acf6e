package dev.wharf.core.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.SessionLimitException.Limit;
import dev.wharf.core.session.SessionProperties.NewSessions;
import dev.wharf.core.session.Sessions.NewSession;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What {@link Sessions} does over every {@link SessionStore} and
 * {@link NewSessionLimits}, in this process or shared by replicas, on a clock moved by
 * hand: lifetimes, revocation (on every replica), the cap per user (which never ends
 * another user's session) and the limits on how fast sessions start.
 */
public abstract class AbstractSessionsContractTests {

	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	protected static final NewSessions NO_RATE = new NewSessions(0, 0, Duration.ofMinutes(1));

	protected final MutableClock clock = new MutableClock();

	protected final User alice = new User("alice", Set.of(Role.USER), Map.of());

	protected final User bob = new User("bob", Set.of(Role.USER), Map.of());

	protected SessionStore store;

	protected Sessions sessions;

	/**
	 * A store on the clock; a second call gives another replica's store over the same
	 * sessions.
	 */
	protected abstract SessionStore store();

	/**
	 * Limits on session starts; a second call gives another replica's view of the same
	 * buckets.
	 */
	protected abstract NewSessionLimits limits(NewSessions newSessions);

	/** How long an ended session may still be found on another replica. */
	protected abstract Duration propagation();

	@BeforeEach
	void createSessions() {
		this.store = store();
		this.sessions = sessions(this.store, 100, NO_RATE);
	}

	/** Sessions over a store, with a cap per user and limits on starts. */
	protected Sessions sessions(SessionStore store, int maxPerUser, NewSessions newSessions) {
		return new Sessions(store, limits(newSessions), properties(1000, maxPerUser, newSessions), this.clock);
	}

	@Test
	void aSessionStartedOnOneReplicaIsFoundOnAnotherAndEndsOnEveryReplica() {
		Sessions other = sessions(store(), 100, NO_RATE);
		NewSession one = this.sessions.create(this.alice, "10.0.0.1", null).block(TIMEOUT);
		NewSession two = this.sessions.create(this.alice, "10.0.0.1", null).block(TIMEOUT);
		assertThat(other.find(one.secret()).block(TIMEOUT).user()).isEqualTo("alice");
		assertThat(other.find(two.secret()).block(TIMEOUT)).isNotNull();
		assertThat(other.revoke(one.secret()).block(TIMEOUT)).isNotNull();
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> this.sessions.find(one.secret()).block(TIMEOUT) == null);
		assertThat(other.revokeAll("alice").block(TIMEOUT)).isEqualTo(1);
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> this.sessions.find(two.secret()).block(TIMEOUT) == null);
	}

	@Test
	void sessionStartsOnSeveralReplicasCountTogether() {
		NewSessions threePerMinute = new NewSessions(3, 0, Duration.ofMinutes(1));
		Sessions here = sessions(this.store, 100, threePerMinute);
		Sessions there = sessions(store(), 100, threePerMinute);
		here.create(this.alice, "10.0.0.1", null).block(TIMEOUT);
		there.create(this.alice, "10.0.0.2", null).block(TIMEOUT);
		here.create(this.alice, "10.0.0.3", null).block(TIMEOUT);
		assertThatThrownBy(() -> there.create(this.alice, "10.0.0.4", null).block(TIMEOUT))
			.isInstanceOf(SessionLimitException.class);
	}

	@Test
	void aSessionIsFoundByItsSecretWhichIsNeverStored() {
		NewSession created = this.sessions.create(this.alice, "127.0.0.1", null).block(TIMEOUT);
		assertThat(created.secret()).hasSize(43);
		assertThat(created.session().key()).isNotEqualTo(created.secret()).isEqualTo(Secrets.digest(created.secret()));
		assertThat(this.sessions.find(created.secret()).block(TIMEOUT).user()).isEqualTo("alice");
		assertThat(created.toString()).doesNotContain(created.secret());
		assertThat(this.sessions.find("A".repeat(43)).block(TIMEOUT)).isNull();
		assertThat(this.sessions.find("short").block(TIMEOUT)).isNull();
	}

	@Test
	void anIdleSessionEndsAndAUsedOneLivesOnUntilItsMaximumAge() {
		NewSession idle = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		NewSession busy = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		for (int i = 0; i < 7; i++) {
			this.clock.advance(Duration.ofMinutes(50));
			assertThat(this.sessions.find(busy.secret()).block(TIMEOUT)).as("used every 50 minutes").isNotNull();
		}
		assertThat(this.sessions.find(idle.secret()).block(TIMEOUT)).isNull();
		this.clock.advance(Duration.ofMinutes(80));
		assertThat(this.sessions.find(busy.secret()).block(TIMEOUT)).as("past the maximum age").isNull();
	}

	@Test
	void revokingEndsOneOrAllSessionsOfAUser() {
		NewSession one = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		NewSession two = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		NewSession bob = this.sessions.create(this.bob, null, null).block(TIMEOUT);
		assertThat(this.sessions.revoke(one.secret()).block(TIMEOUT)).isNotNull();
		assertThat(this.sessions.find(one.secret()).block(TIMEOUT)).isNull();
		assertThat(this.sessions.find(two.secret()).block(TIMEOUT)).isNotNull();
		assertThat(this.sessions.list("alice").collectList().block(TIMEOUT)).hasSize(1);
		assertThat(this.sessions.revokeAll("alice").block(TIMEOUT)).isEqualTo(1);
		assertThat(this.sessions.find(two.secret()).block(TIMEOUT)).isNull();
		assertThat(this.sessions.find(bob.secret()).block(TIMEOUT)).isNotNull();
	}

	@Test
	void credentialsStayInTheSessionAndOutOfItsDescription() {
		NewSession created = this.sessions.create(this.alice, null, new Credentials("alice", "pw-123")).block(TIMEOUT);
		assertThat(this.sessions.find(created.secret()).block(TIMEOUT).credentials().password()).isEqualTo("pw-123");
		assertThat(created.session().toString()).doesNotContain("pw-123");
	}

	@Test
	void aUsersOldestSessionsEndPastTheCapAndNobodyElses() {
		Sessions capped = sessions(this.store, 3, NO_RATE);
		NewSession bob = capped.create(this.bob, null, null).block(TIMEOUT);
		List<NewSession> alices = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			alices.add(capped.create(this.alice, null, null).block(TIMEOUT));
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(capped.find(alices.get(0).secret()).block(TIMEOUT)).isNull();
		assertThat(capped.find(alices.get(1).secret()).block(TIMEOUT)).isNull();
		for (NewSession kept : alices.subList(2, 5)) {
			assertThat(capped.find(kept.secret()).block(TIMEOUT)).isNotNull();
		}
		assertThat(capped.list("alice").collectList().block(TIMEOUT)).hasSize(3);
		assertThat(capped.find(bob.secret()).block(TIMEOUT)).isNotNull();
	}

	@Test
	void sessionStartsAreLimitedPerUserThenComeBackOverThePeriod() {
		Sessions limited = sessions(this.store, 100, new NewSessions(3, 0, Duration.ofMinutes(1)));
		for (int i = 0; i < 3; i++) {
			assertThat(limited.create(this.alice, "10.0.0.1", null).block(TIMEOUT)).isNotNull();
		}
		assertThatThrownBy(() -> limited.create(this.alice, "10.0.0.2", null).block(TIMEOUT))
			.isInstanceOfSatisfying(SessionLimitException.class, refused -> {
				assertThat(refused.limit()).isEqualTo(Limit.USER_RATE);
				assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(20));
			});
		assertThat(limited.create(this.bob, "10.0.0.1", null).block(TIMEOUT)).as("another user").isNotNull();
		this.clock.advance(Duration.ofSeconds(20));
		assertThat(limited.create(this.alice, "10.0.0.1", null).block(TIMEOUT)).isNotNull();
		assertThatThrownBy(() -> limited.create(this.alice, "10.0.0.1", null).block(TIMEOUT))
			.isInstanceOf(SessionLimitException.class);
	}

	@Test
	void sessionStartsAreLimitedPerAddressWithoutUsingUpTheUsers() {
		Sessions limited = sessions(this.store, 100, new NewSessions(2, 3, Duration.ofMinutes(1)));
		for (int i = 0; i < 3; i++) {
			User user = new User("user" + i, Set.of(Role.USER), Map.of());
			assertThat(limited.create(user, "10.0.0.9", null).block(TIMEOUT)).isNotNull();
		}
		assertThatThrownBy(() -> limited.create(this.alice, "10.0.0.9", null).block(TIMEOUT)).isInstanceOfSatisfying(
				SessionLimitException.class, refused -> assertThat(refused.limit()).isEqualTo(Limit.ADDRESS_RATE));
		assertThat(limited.create(this.alice, "10.0.0.10", null).block(TIMEOUT)).as("another address").isNotNull();
		assertThat(limited.create(this.alice, "10.0.0.10", null).block(TIMEOUT))
			.as("the refusal did not use one of alice's starts")
			.isNotNull();
	}

	@Test
	void anEndedSessionIsNeverBroughtBackByAnUpdate() {
		NewSession created = this.sessions.create(this.alice, null, null).block(TIMEOUT);
		this.store.delete(created.session().key()).block(TIMEOUT);
		this.store.update(created.session(), Duration.ofHours(1)).block(TIMEOUT);
		assertThat(this.store.find(created.session().key()).block(TIMEOUT)).isNull();
		assertThat(this.store.findAll("alice").collectList().block(TIMEOUT)).isEmpty();
	}

	protected static SessionProperties properties(long maximumSessions, int maxPerUser, NewSessions newSessions) {
		return new SessionProperties(Duration.ofHours(1), Duration.ofHours(8), maximumSessions, maxPerUser,
				newSessions);
	}

}
