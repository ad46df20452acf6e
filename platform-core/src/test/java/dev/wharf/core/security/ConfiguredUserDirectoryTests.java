package dev.wharf.core.security;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.SecurityProperties.UserProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link ConfiguredUserDirectory}.
 */
class ConfiguredUserDirectoryTests {

	static final String HASH = PasswordHashing.hash("s3cret-pass");

	@Test
	void verifiesConfiguredUsers() {
		ConfiguredUserDirectory directory = new ConfiguredUserDirectory(List.of(new UserProperties("alice", HASH,
				List.of("user", "cache-writer"), Map.of("data", "rw", "scratch", "ro"))),
				Set.of("data", "scratch")::contains);
		User alice = directory.verify("alice", "s3cret-pass").block();
		assertThat(alice).isNotNull();
		assertThat(alice.roles()).containsExactlyInAnyOrder(Role.USER, Role.CACHE_WRITER);
		assertThat(alice.access("data")).isEqualTo(MountAccess.READ_WRITE);
		assertThat(alice.access("scratch")).isEqualTo(MountAccess.READ_ONLY);
		assertThat(alice.access("other")).isEqualTo(MountAccess.NONE);
		assertThat(directory.verify("alice", "wrong").block()).isNull();
		assertThat(directory.verify("bob", "s3cret-pass").block()).isNull();
		assertThat(directory.find("alice")).contains(alice);
	}

	@Test
	void anAdminMayDoEverything() {
		User admin = new User("root", Set.of(Role.ADMIN), Map.of());
		assertThat(admin.access("anything")).isEqualTo(MountAccess.READ_WRITE);
		assertThat(admin.hasRole(Role.CACHE_WRITER)).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "bad name|'bad name'|HASH|user|data=rw|wharf.security.users[0].name",
					"no password|alice||user|data=rw|wharf.security.users[0].password",
					"plain password|alice|hunter2|user|data=rw|wharf.security.users[0].password",
					"unknown role|alice|HASH|superuser|data=rw|wharf.security.users[0].roles",
					"unknown mount|alice|HASH|user|nope=rw|wharf.security.users[0].mounts.nope",
					"bad rights|alice|HASH|user|data=write|wharf.security.users[0].mounts.data" })
	void refusesMalformedEntriesNamingTheProperty(String title, String name, String password, String role, String mount,
			String property) {
		String[] access = mount.split("=");
		UserProperties user = new UserProperties(name, "HASH".equals(password) ? HASH : password, List.of(role),
				Map.of(access[0], access[1]));
		assertThatThrownBy(() -> new ConfiguredUserDirectory(List.of(user), "data"::equals))
			.isInstanceOfSatisfying(InvalidConfigurationException.class, ex -> {
				assertThat(ex.property()).isEqualTo(property);
				assertThat(ex.getMessage()).doesNotContain("hunter2").doesNotContain(HASH);
			});
	}

	@Test
	void refusesTwoUsersWithOneName() {
		UserProperties user = new UserProperties("alice", HASH, List.of(), Map.of());
		assertThatThrownBy(() -> new ConfiguredUserDirectory(List.of(user, user), m -> true)).isInstanceOfSatisfying(
				InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo("wharf.security.users[1].name"));
	}

	@Test
	void hashesAreRecognised() {
		assertThat(PasswordHashing.isHash(HASH)).isTrue();
		assertThat(PasswordHashing.isHash("{bcrypt}nope")).isFalse();
		assertThat(PasswordHashing.isHash(HASH.substring("{bcrypt}".length()))).isFalse();
		assertThat(PasswordHashing.matches("s3cret-pass", HASH)).isTrue();
		assertThat(PasswordHashing.matches("s3cret-pass", "plain")).isFalse();
	}

}
