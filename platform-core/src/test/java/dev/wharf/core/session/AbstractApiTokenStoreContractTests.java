package dev.wharf.core.session;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiTokens.IssuedToken;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link ApiTokenStore} does under {@link ApiTokens}, whether in a file or
 * shared in Redis: a token works until revoked or expired, on every replica, and a user's
 * tokens are listed oldest first.
 */
public abstract class AbstractApiTokenStoreContractTests {

	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	protected final MutableClock clock = new MutableClock();

	protected final User alice = new User("alice", Set.of(Role.USER), Map.of());

	/** A store; a second call gives another replica's store over the same tokens. */
	protected abstract ApiTokenStore store();

	/** How long a change made on one replica may take to be seen on another. */
	protected abstract Duration propagation();

	@Test
	void aTokenMintedOnOneReplicaWorksOnAnotherUntilRevokedOnEither() {
		ApiTokens here = new ApiTokens(store(), this.clock);
		ApiTokens there = new ApiTokens(store(), this.clock);
		IssuedToken issued = here.issue(this.alice, "ci", null).block(TIMEOUT);
		assertThat(here.authenticate(issued.secret()).block(TIMEOUT).user()).isEqualTo("alice");
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> there.authenticate(issued.secret()).block(TIMEOUT) != null);
		assertThat(there.revoke("bob", issued.token().id()).block(TIMEOUT)).as("another user's").isFalse();
		assertThat(there.revoke("alice", issued.token().id()).block(TIMEOUT)).isTrue();
		assertThat(there.authenticate(issued.secret()).block(TIMEOUT)).isNull();
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> here.authenticate(issued.secret()).block(TIMEOUT) == null);
		assertThat(here.revoke("alice", issued.token().id()).block(TIMEOUT)).as("revoked already").isFalse();
	}

	@Test
	void tokensExpire() {
		ApiTokens tokens = new ApiTokens(store(), this.clock);
		IssuedToken forever = tokens.issue(this.alice, "a", null).block(TIMEOUT);
		IssuedToken week = tokens.issue(this.alice, "b", Duration.ofDays(7)).block(TIMEOUT);
		assertThat(tokens.authenticate(week.secret()).block(TIMEOUT)).isNotNull();
		this.clock.advance(Duration.ofDays(8));
		assertThat(tokens.authenticate(week.secret()).block(TIMEOUT)).isNull();
		assertThat(tokens.authenticate(forever.secret()).block(TIMEOUT)).isNotNull();
	}

	@Test
	void aUsersTokensAreListedOldestFirstWithoutSecrets() {
		ApiTokens tokens = new ApiTokens(store(), this.clock);
		IssuedToken first = tokens.issue(this.alice, "first", null).block(TIMEOUT);
		this.clock.advance(Duration.ofSeconds(1));
		IssuedToken second = tokens.issue(this.alice, "second\tlabel", Duration.ofDays(1)).block(TIMEOUT);
		tokens.issue(new User("bob", Set.of(Role.USER), Map.of()), "bob's", null).block(TIMEOUT);
		assertThat(tokens.list("alice").collectList().block(TIMEOUT)).containsExactly(first.token(), second.token());
		assertThat(tokens.list("carol").collectList().block(TIMEOUT)).isEmpty();
	}

	@Test
	void malformedTokensAreRefusedWithoutALookup() {
		ApiTokens tokens = new ApiTokens(store(), this.clock);
		assertThat(tokens.authenticate("").block(TIMEOUT)).isNull();
		assertThat(tokens.authenticate("wharf_short").block(TIMEOUT)).isNull();
		assertThat(tokens.authenticate("x".repeat(49)).block(TIMEOUT)).isNull();
	}

}
