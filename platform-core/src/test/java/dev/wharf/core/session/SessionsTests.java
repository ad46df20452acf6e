package dev.wharf.core.session;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.Sessions.NewSession;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Sessions} over an {@link InMemorySessionStore}, on a clock moved by hand.
 */
class SessionsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final MutableClock clock = new MutableClock();

	private final InMemorySessionStore store = new InMemorySessionStore(1000, this.clock::nanos);

	private final Sessions sessions = new Sessions(this.store,
			new SessionProperties(Duration.ofHours(1), Duration.ofHours(8), 1000), this.clock);

	private final User alice = new User("alice", Set.of(Role.USER), Map.of());

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
		NewSession bob = this.sessions.create(new User("bob", Set.of(Role.USER), Map.of()), null, null).block(TIMEOUT);
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
	void theStoreIsBounded() {
		InMemorySessionStore small = new InMemorySessionStore(10, this.clock::nanos);
		Sessions bounded = new Sessions(small, new SessionProperties(Duration.ofHours(1), Duration.ofHours(8), 10), this.clock);
		for (int i = 0; i < 100; i++) {
			bounded.create(this.alice, null, null).block(TIMEOUT);
		}
		assertThat(small.size()).isLessThanOrEqualTo(10);
	}

}
