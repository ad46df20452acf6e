package dev.wharf.core.session;

import java.nio.file.Path;

import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.SessionAutoConfiguration;
import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SessionAutoConfiguration}.
 */
class SessionAutoConfigurationTests {

	@TempDir
	Path state;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class,
					SessionAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.storage.mounts.data.type=memory");
	}

	@Test
	void providesInMemorySessionsAndFileTokensByDefault() {
		runner().run(context -> {
			assertThat(context).hasSingleBean(Sessions.class).hasSingleBean(ApiTokens.class);
			assertThat(context.getBean(SessionStore.class)).isInstanceOf(InMemorySessionStore.class);
			assertThat(context.getBean(ApiTokenStore.class)).isInstanceOf(FileApiTokenStore.class);
		});
	}

	@Test
	void aSharedStoreReplacesTheDefault() {
		runner().withBean(SessionStore.class, () -> new InMemorySessionStore(5)).run(context -> {
			assertThat(context).hasSingleBean(SessionStore.class);
			assertThat(context.getBean(SessionStore.class)).isInstanceOf(InMemorySessionStore.class);
		});
	}

	@Test
	void badDurationsStopStartUpNamingTheProperty() {
		runner().withPropertyValues("wharf.sessions.idle-timeout=10s").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationException.class)
				.hasMessageContaining("wharf.sessions.idle-timeout");
		});
		runner().withPropertyValues("wharf.sessions.idle-timeout=2h", "wharf.sessions.max-age=1h").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("wharf.sessions.max-age");
		});
	}

	@Test
	void badSessionCapsStopStartUpNamingTheProperty() {
		for (String[] bad : new String[][] { { "wharf.sessions.max-per-user=0", "wharf.sessions.max-per-user" },
				{ "wharf.sessions.new-sessions.per-user=-1", "wharf.sessions.new-sessions.per-user" },
				{ "wharf.sessions.new-sessions.period=0s", "wharf.sessions.new-sessions.period" } }) {
			runner().withPropertyValues(bad[0]).run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidConfigurationException.class)
					.hasMessageContaining(bad[1]);
			});
		}
	}

}
