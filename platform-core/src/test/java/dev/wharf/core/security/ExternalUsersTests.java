package dev.wharf.core.security;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.security.DirectoryProperties.RuleProperties;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ExternalUsers} and {@link FileExternalUserStore}.
 */
class ExternalUsersTests {

	@TempDir
	Path state;

	final MutableClock clock = new MutableClock();

	final DirectoryRules rules = new DirectoryRules(
			List.of(new RuleProperties("staff", List.of("user"), Map.of("data", "rw"))), "data"::equals);

	FileExternalUserStore store;

	@BeforeEach
	void open() {
		this.store = store(Duration.ofMinutes(1));
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	FileExternalUserStore store(Duration refresh) {
		return new FileExternalUserStore(this.state.resolve(FileExternalUserStore.FILE_NAME),
				Schedulers.newSingle("test-external-users"), refresh);
	}

	ExternalUsers users(ExternalUserStore store) {
		return new ExternalUsers(store, this.rules, Duration.ofDays(30), this.clock);
	}

	@Test
	void aSignedInUserIsFoundBySourceUntilForgotten() {
		ExternalUsers users = users(this.store);
		assertThat(users.signedIn("alice", Source.OIDC, List.of("staff", "other")).block())
			.hasValueSatisfying(alice -> assertThat(alice.access("data")).isEqualTo(MountAccess.READ_WRITE));
		assertThat(users.find("alice", Source.OIDC)).isPresent();
		assertThat(users.find("alice", Source.LDAP)).as("another source's user of that name").isEmpty();
		this.clock.advance(Duration.ofDays(30));
		assertThat(users.find("alice", Source.OIDC)).as("not seen for forget-after").isEmpty();
	}

	@Test
	void aUserInNoRulesGroupIsRememberedButHasNoRights() {
		ExternalUsers users = users(this.store);
		assertThat(users.signedIn("eve", Source.LDAP, List.of("visitors")).block()).isEmpty();
		assertThat(this.store.find("eve")).isPresent();
		assertThat(users.find("eve", Source.LDAP)).isEmpty();
	}

	@Test
	void usersSurviveARestartAndGroupsOfAnyCharacterSurviveTheFile() throws Exception {
		Set<String> groups = Set.of("staff", "tab\there", "new\nline", "per%cent", "Grüße", "a b");
		users(this.store).signedIn("alice", Source.LDAP, groups).block();
		this.store.close();
		this.store = store(Duration.ofMinutes(1));
		ExternalUser alice = this.store.find("alice").orElseThrow();
		assertThat(alice.groups()).isEqualTo(groups);
		assertThat(alice.source()).isEqualTo(Source.LDAP);
		assertThat(Files.readString(this.state.resolve(FileExternalUserStore.FILE_NAME))).doesNotContain("new\nline");
		users(this.store).forget("alice").block();
		assertThat(this.store.find("alice")).isEmpty();
	}

	@Test
	void aSignInWritesOnlyWhatChangedOrAnHourLater() throws Exception {
		ExternalUsers users = users(this.store);
		Path file = this.state.resolve(FileExternalUserStore.FILE_NAME);
		users.signedIn("alice", Source.LDAP, List.of("staff")).block();
		String first = Files.readString(file);
		this.clock.advance(Duration.ofMinutes(59));
		users.signedIn("alice", Source.LDAP, List.of("staff")).block();
		assertThat(Files.readString(file)).isEqualTo(first);
		users.signedIn("alice", Source.LDAP, List.of("staff", "more")).block();
		assertThat(Files.readString(file)).isNotEqualTo(first).contains("more");
		String second = Files.readString(file);
		this.clock.advance(Duration.ofMinutes(61));
		users.signedIn("alice", Source.LDAP, List.of("staff", "more")).block();
		assertThat(Files.readString(file)).isNotEqualTo(second);
	}

	@Test
	void anotherReplicasSignInIsSeenAndMalformedLinesAreSkipped() throws Exception {
		try (FileExternalUserStore other = store(Duration.ofMillis(50))) {
			users(this.store).signedIn("bob", Source.OIDC, List.of("staff")).block();
			await().atMost(Duration.ofSeconds(5)).until(() -> other.find("bob").isPresent());
			Path file = this.state.resolve(FileExternalUserStore.FILE_NAME);
			Files.writeString(file, Files.readString(file) + "not a user\nbad name\toidc\t1\nx\tnone\t1\n");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> !other.find("bob").isEmpty() && other.find("x").isEmpty());
			assertThat(other.find("bob")).isPresent();
		}
	}

}
