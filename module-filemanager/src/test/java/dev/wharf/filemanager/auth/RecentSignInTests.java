package dev.wharf.filemanager.auth;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.DirectoryProperties.RuleProperties;
import dev.wharf.core.security.DirectoryRules;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.FileExternalUserStore;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.session.ApiToken;
import dev.wharf.core.session.Session;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RecentSignIn}.
 */
class RecentSignInTests {

	@TempDir
	Path state;

	final MutableClock clock = new MutableClock();

	FileExternalUserStore store;

	ExternalUsers users;

	@BeforeEach
	void users() {
		this.store = new FileExternalUserStore(this.state.resolve("external-users"), Schedulers.newSingle("test-users"),
				Duration.ofMinutes(1));
		this.users = new ExternalUsers(this.store,
				new DirectoryRules(List.of(new RuleProperties("staff", List.of("user"), Map.of())), name -> true),
				Duration.ofDays(30), this.clock);
		this.users.signedIn("olivia", Source.OIDC, List.of("staff")).block();
		this.users.signedIn("larry", Source.LDAP, List.of("staff")).block();
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	Caller session(String name) {
		Instant now = this.clock.instant();
		return new Caller(new User(name, Set.of(Role.USER), Map.of()), new Session("key", name, now, now, null, null),
				null);
	}

	@Test
	void aProviderUsersSessionMintsOnlyWithinTheWindowAfterItsSignIn() {
		RecentSignIn rule = new RecentSignIn(this.users, Duration.ofMinutes(10), "SSO", this.clock);
		Caller olivia = session("olivia");
		assertThat(rule.mintUntil(olivia)).isEqualTo(this.clock.instant().plus(Duration.ofMinutes(10)));
		assertThat(rule.allows(olivia)).isTrue();
		this.clock.advance(Duration.ofMinutes(10));
		assertThat(rule.allows(olivia)).as("a cookie stolen later").isFalse();
		assertThat(rule.allows(session("olivia"))).as("a new sign-in").isTrue();
	}

	@Test
	void usersWithAPasswordAndTokensNeverMintWithoutThePassword() {
		RecentSignIn rule = new RecentSignIn(this.users, Duration.ofMinutes(10), "SSO", this.clock);
		assertThat(rule.mintUntil(session("larry"))).as("an LDAP user").isNull();
		assertThat(rule.mintUntil(session("alice"))).as("a configured user").isNull();
		Caller token = new Caller(new User("olivia", Set.of(Role.USER), Map.of()), null,
				new ApiToken("id", "olivia", "ci", "digest", this.clock.instant(), null));
		assertThat(rule.allows(token)).as("a token").isFalse();
		assertThat(rule.rule()).contains("or a sign-in with SSO in the last 10 minutes");
		assertThat(RecentSignIn.NEVER.isPossible()).isFalse();
		assertThat(RecentSignIn.NEVER.allows(session("olivia"))).isFalse();
		assertThat(RecentSignIn.NEVER.rule())
			.isEqualTo("Minting a token needs the account's name and password (HTTP Basic)");
		assertThat(new RecentSignIn(this.users, Duration.ZERO, "SSO", this.clock).allows(session("olivia"))).isFalse();
	}

}
