package dev.wharf.core.autoconfigure;

import java.nio.file.Path;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.InitialAdmin;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.security.UserDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.wharf.core.autoconfigure.StorageAutoConfigurationTests.rootCause;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SecurityAutoConfiguration}.
 */
class SecurityAutoConfigurationTests {

	@TempDir
	Path state;

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class))
		.withPropertyValues("wharf.storage.mounts.data.type=memory");

	@Test
	void configuredUsersCanLogIn() {
		String hash = PasswordHashing.hash("pw-alice");
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.users[0].name=alice",
					"wharf.security.users[0].password=" + hash, "wharf.security.users[0].roles=user",
					"wharf.security.users[0].mounts.data=rw")
			.run(context -> {
				Authenticator authenticator = context.getBean(Authenticator.class);
				assertThat(authenticator.login("test", "alice", "pw-alice", null).block())
					.isInstanceOf(LoginResult.Success.class);
				assertThat(authenticator.login("test", "alice", "nope", null).block()).isInstanceOf(LoginResult.Failure.class);
				assertThat(context.getBean(UserDirectory.class).find("alice")).isPresent();
				assertThat(this.state.resolve(InitialAdmin.FILE_NAME)).doesNotExist();
			});
	}

	@Test
	void withoutUsersAnAdminIsGenerated() {
		this.runner.withPropertyValues("wharf.state-dir=" + this.state).run(context -> {
			assertThat(context.getBean(UserDirectory.class).find("admin")).hasValueSatisfying(u -> assertThat(u.isAdmin()).isTrue());
			assertThat(this.state.resolve(InitialAdmin.FILE_NAME)).exists();
		});
	}

	@Test
	void aMalformedUserStopsStartUpWithoutShowingThePassword() {
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.users[0].name=alice",
					"wharf.security.users[0].password=plaintext-secret")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).property()).isEqualTo("wharf.security.users[0].password");
				assertThat(context.getStartupFailure()).hasStackTraceContaining("hash-password");
				assertThat(rootCause(context.getStartupFailure()).getMessage()).doesNotContain("plaintext-secret");
			});
	}

}
