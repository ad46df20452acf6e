package dev.wharf.core.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.SessionLimitException.Limit;
import dev.wharf.core.session.SessionProperties.NewSessions;
import dev.wharf.core.session.Sessions.NewSession;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sessions contract over an {@link InMemorySessionStore} (both "replicas" are the
 * same store and limits, as on one node), and what only the in-memory store does: a bound
 * on all sessions together that never ends another user's session, and an index that
 * forgets expired sessions.
 */
class InMemorySessionsContractTests extends AbstractSessionsContractTests {

	private InMemorySessionStore shared;

	private NewSessionLimits limits;

	private NewSessions limitsOf;

	@Override
	protected SessionStore store() {
		if (this.shared == null) {
			this.shared = new InMemorySessionStore(1000, this.clock::nanos);
		}
		return this.shared;
	}

	@Override
	protected NewSessionLimits limits(NewSessions newSessions) {
		if (this.limits == null || !newSessions.equals(this.limitsOf)) {
			this.limits = new InMemoryNewSessionLimits(newSessions, this.clock);
			this.limitsOf = newSessions;
		}
		return this.limits;
	}

	@Override
	protected Duration propagation() {
		return Duration.ofMillis(1);
	}

	@Test
	void theStoreIsBounded() {
		InMemorySessionStore small = new InMemorySessionStore(10, this.clock::nanos);
		Sessions bounded = new Sessions(small, properties(10, 10, NO_RATE), this.clock);
		for (int i = 0; i < 100; i++) {
			bounded.create(this.alice, null, null).block(TIMEOUT);
		}
		assertThat(small.size()).isEqualTo(10);
	}

	@Test
	void aFullStoreTakesTheCreatingUsersOldestOrRefusesButNeverEndsAnotherUsers() {
		InMemorySessionStore small = new InMemorySessionStore(4, this.clock::nanos);
		Sessions full = new Sessions(small, properties(4, 4, NO_RATE), this.clock);
		NewSession bob = full.create(this.bob, null, null).block(TIMEOUT);
		List<NewSession> alices = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			alices.add(full.create(this.alice, null, null).block(TIMEOUT));
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(small.size()).isEqualTo(4);
		assertThat(full.find(bob.secret()).block(TIMEOUT)).as("another user's session").isNotNull();
		assertThat(full.list("alice").collectList().block(TIMEOUT)).extracting(Session::key)
			.containsExactlyInAnyOrderElementsOf(alices.subList(3, 6).stream().map(a -> a.session().key()).toList());
		User carol = new User("carol", Set.of(Role.USER), Map.of());
		assertThatThrownBy(() -> full.create(carol, null, null).block(TIMEOUT))
			.isInstanceOfSatisfying(SessionLimitException.class, refused -> {
				assertThat(refused.limit()).isEqualTo(Limit.STORE_FULL);
				assertThat(refused.retryAfter()).isPositive();
			});
		assertThat(full.find(bob.secret()).block(TIMEOUT)).isNotNull();
		// Once a session ends, there is room again.
		assertThat(full.revoke(bob.secret()).block(TIMEOUT)).isNotNull();
		assertThat(full.create(carol, null, null).block(TIMEOUT)).isNotNull();
	}

	@Test
	void theIndexByUserForgetsExpiredSessions() {
		this.sessions.create(this.alice, null, null).block(TIMEOUT);
		this.clock.advance(Duration.ofHours(2));
		assertThat(this.shared.size()).isZero();
		assertThat(this.shared.findAll("alice").collectList().block(TIMEOUT)).isEmpty();
		assertThat(this.shared.deleteAll("alice").block(TIMEOUT)).isZero();
	}

}
