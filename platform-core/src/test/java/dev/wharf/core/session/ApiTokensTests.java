package dev.wharf.core.session;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiTokens.IssuedToken;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ApiTokens} over a {@link FileApiTokenStore}.
 */
class ApiTokensTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@TempDir
	Path state;

	private final MutableClock clock = new MutableClock();

	private final User alice = new User("alice", Set.of(Role.USER), Map.of());

	private FileApiTokenStore store;

	private FileApiTokenStore other;

	private FileApiTokenStore store() {
		return new FileApiTokenStore(this.state.resolve(FileApiTokenStore.FILE_NAME),
				Schedulers.newBoundedElastic(1, 100, "test-tokens"), Duration.ofMillis(200));
	}

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
		if (this.other != null) {
			this.other.close();
		}
	}

	@Test
	void aTokenWorksUntilRevokedAndOnlyItsDigestIsStored() throws Exception {
		this.store = store();
		ApiTokens tokens = new ApiTokens(this.store, this.clock);
		IssuedToken issued = tokens.issue(this.alice, "ci\tjob\nname", null).block(TIMEOUT);
		assertThat(issued.secret()).startsWith("wharf_").hasSize(6 + 43);
		assertThat(issued.token().label()).isEqualTo("cijobname");
		assertThat(tokens.authenticate(issued.secret()).block(TIMEOUT).user()).isEqualTo("alice");
		String file = Files.readString(this.state.resolve(FileApiTokenStore.FILE_NAME));
		assertThat(file).contains(issued.token().digest()).doesNotContain(issued.secret().substring(6));
		assertThat(issued.toString()).doesNotContain(issued.secret());
		assertThat(tokens.revoke("bob", issued.token().id()).block(TIMEOUT)).isFalse();
		assertThat(tokens.revoke("alice", issued.token().id()).block(TIMEOUT)).isTrue();
		assertThat(tokens.authenticate(issued.secret()).block(TIMEOUT)).isNull();
	}

	@Test
	void tokensSurviveARestartAndExpire() {
		this.store = store();
		IssuedToken forever = new ApiTokens(this.store, this.clock).issue(this.alice, "a", null).block(TIMEOUT);
		IssuedToken week = new ApiTokens(this.store, this.clock).issue(this.alice, "b", Duration.ofDays(7)).block(TIMEOUT);
		this.store.close();
		this.store = store();
		ApiTokens restarted = new ApiTokens(this.store, this.clock);
		assertThat(restarted.list("alice").collectList().block(TIMEOUT)).hasSize(2);
		assertThat(restarted.authenticate(forever.secret()).block(TIMEOUT)).isNotNull();
		assertThat(restarted.authenticate(week.secret()).block(TIMEOUT)).isNotNull();
		this.clock.advance(Duration.ofDays(8));
		assertThat(restarted.authenticate(week.secret()).block(TIMEOUT)).isNull();
		assertThat(restarted.authenticate(forever.secret()).block(TIMEOUT)).isNotNull();
	}

	@Test
	void anotherProcessSharingTheFolderSeesNewAndRevokedTokens() {
		this.store = store();
		this.other = store();
		ApiTokens here = new ApiTokens(this.store, this.clock);
		ApiTokens there = new ApiTokens(this.other, this.clock);
		IssuedToken issued = here.issue(this.alice, "shared", null).block(TIMEOUT);
		await().atMost(Duration.ofSeconds(10)).until(() -> there.authenticate(issued.secret()).block(TIMEOUT) != null);
		IssuedToken second = there.issue(this.alice, "second", null).block(TIMEOUT);
		// A change re-reads the file first, so neither replica loses the other's token.
		assertThat(here.authenticate(issued.secret()).block(TIMEOUT)).isNotNull();
		await().atMost(Duration.ofSeconds(10)).until(() -> here.authenticate(second.secret()).block(TIMEOUT) != null);
		there.revoke("alice", issued.token().id()).block(TIMEOUT);
		await().atMost(Duration.ofSeconds(10)).until(() -> here.authenticate(issued.secret()).block(TIMEOUT) == null);
	}

	@Test
	void malformedTokensAreRefusedWithoutALookup() {
		this.store = store();
		ApiTokens tokens = new ApiTokens(this.store, this.clock);
		assertThat(tokens.authenticate("").block(TIMEOUT)).isNull();
		assertThat(tokens.authenticate("wharf_short").block(TIMEOUT)).isNull();
		assertThat(tokens.authenticate("x".repeat(49)).block(TIMEOUT)).isNull();
		assertThat(ApiTokens.cleanLabel("  ")).isEqualTo("token");
		assertThat(ApiTokens.cleanLabel("x".repeat(100))).hasSize(64);
	}

}
