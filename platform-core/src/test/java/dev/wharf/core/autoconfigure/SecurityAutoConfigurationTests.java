package dev.wharf.core.autoconfigure;

import java.nio.file.Path;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.FileExternalUserStore;
import dev.wharf.core.security.InitialAdmin;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.testsupport.SlapdProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
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
				assertThat(authenticator.login("test", "alice", "nope", null).block())
					.isInstanceOf(LoginResult.Failure.class);
				assertThat(context.getBean(UserDirectory.class).find("alice")).isPresent();
				assertThat(this.state.resolve(InitialAdmin.FILE_NAME)).doesNotExist();
			});
	}

	@Test
	void withoutUsersAnAdminIsGenerated() {
		this.runner.withPropertyValues("wharf.state-dir=" + this.state).run(context -> {
			assertThat(context.getBean(UserDirectory.class).find("admin"))
				.hasValueSatisfying(u -> assertThat(u.isAdmin()).isTrue());
			assertThat(this.state.resolve(InitialAdmin.FILE_NAME)).exists();
		});
	}

	@Test
	void ldapUsersLogInWithTheRulesRightsOverLdapsTrustedByAnSslBundle(@TempDir Path folder) throws Exception {
		try (SlapdProcess slapd = SlapdProcess.start(folder)) {
			slapd.addUser("bob", "bob-pw");
			slapd.addGroup("staff", "bob");
			this.runner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
				.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.ldap.urls[0]=" + slapd.ldapsUrl(),
						"wharf.security.ldap.user-dn-pattern=uid={0}," + SlapdProcess.PEOPLE,
						"wharf.security.ldap.ssl-bundle=directory",
						"spring.ssl.bundle.pem.directory.truststore.certificate=file:" + slapd.certificate(),
						"wharf.security.directory.rules[0].group=staff", "wharf.security.directory.rules[0].roles=user",
						"wharf.security.directory.rules[0].mounts.data=ro")
				.run(context -> {
					Authenticator authenticator = context.getBean(Authenticator.class);
					LoginResult bob = authenticator.login("test", "bob", "bob-pw", null).block();
					assertThat(bob).isInstanceOfSatisfying(LoginResult.Success.class,
							success -> assertThat(success.user().access("data")).isEqualTo(MountAccess.READ_ONLY));
					assertThat(authenticator.login("test", "bob", "nope", null).block())
						.isInstanceOf(LoginResult.Failure.class);
					assertThat(context.getBean(UserDirectory.class).find("bob")).isPresent();
					assertThat(this.state.resolve(InitialAdmin.FILE_NAME)).as("no admin is generated").doesNotExist();
					assertThat(this.state.resolve(FileExternalUserStore.FILE_NAME)).exists();
				});
		}
	}

	@Test
	void directorySignInWithoutRulesOrWithAnUnknownBundleStopsStartUp() {
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.ldap.urls=ldap://127.0.0.1:1",
					"wharf.security.ldap.user-dn-pattern=uid={0},dc=example")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.security.directory.rules"));
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.ldap.urls=ldap://127.0.0.1:1",
					"wharf.security.ldap.user-dn-pattern=uid={0},dc=example", "wharf.security.ldap.ssl-bundle=nope",
					"wharf.security.directory.rules[0].group=staff", "wharf.security.directory.rules[0].roles=user")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.security.ldap.ssl-bundle"));
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.ldap.urls=ldap://127.0.0.1:1",
					"wharf.security.directory.rules[0].group=staff", "wharf.security.directory.rules[0].roles=user")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.security.ldap.user-dn-pattern"));
	}

	@Test
	void aMalformedUserStopsStartUpWithoutShowingThePassword() {
		this.runner
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.security.users[0].name=alice",
					"wharf.security.users[0].password=plaintext-secret")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()).property())
					.isEqualTo("wharf.security.users[0].password");
				assertThat(context.getStartupFailure()).hasStackTraceContaining("hash-password");
				assertThat(rootCause(context.getStartupFailure()).getMessage()).doesNotContain("plaintext-secret");
			});
	}

}
