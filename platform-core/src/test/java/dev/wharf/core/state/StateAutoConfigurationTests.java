package dev.wharf.core.state;

import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.SessionAutoConfiguration;
import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.security.FileExternalUserStore;
import dev.wharf.core.share.FileShareStore;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.state.redis.RedisExternalUserStore;
import dev.wharf.core.state.redis.RedisInvalidations;
import dev.wharf.core.state.redis.RedisLocks;
import dev.wharf.core.state.redis.RedisShareStore;
import dev.wharf.core.state.redis.RedisState;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StateAutoConfiguration}: in-process state by default, Redis state with
 * {@code wharf.state.store: redis} on Spring Boot's own Redis client and settings.
 */
class StateAutoConfigurationTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@TempDir
	Path state;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					DataRedisReactiveAutoConfiguration.class, StateAutoConfiguration.class,
					StorageAutoConfiguration.class, SecurityAutoConfiguration.class, SessionAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.storage.mounts.data.type=memory");
	}

	@Test
	void theDefaultStoreKeepsStateInThisProcess() {
		runner().run(context -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RedisState.class);
			assertThat(context.getBean(Locks.class)).isInstanceOf(InProcessLocks.class);
			assertThat(context.getBean(Invalidations.class)).isInstanceOf(InProcessInvalidations.class);
			assertThat(context.getBean(ShareStore.class)).isInstanceOf(FileShareStore.class);
		});
	}

	@Test
	void theRedisStoreUsesSpringBootsRedisSettingsAndTheKeyPrefix() {
		runner()
			.withPropertyValues("wharf.state.store=redis", "wharf.state.key-prefix=test:",
					"spring.data.redis.url=" + redis.server().url(), "spring.data.redis.timeout=3s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				RedisState redisState = context.getBean(RedisState.class);
				assertThat(redisState.key("lock", "x")).isEqualTo("test:lock:x");
				assertThat(context.getBean(Locks.class)).isInstanceOf(RedisLocks.class);
				assertThat(context.getBean(ShareStore.class)).isInstanceOf(RedisShareStore.class);
				RedisInvalidations invalidations = context.getBean(RedisInvalidations.class);
				await().atMost(Duration.ofSeconds(10)).until(invalidations::isListening);
				assertThat(context.getBean(Locks.class).tryLock("x", Duration.ofMinutes(1)).block()).isNotNull();
				assertThat(redis.server().keys("test:*")).containsExactly("test:lock:x");
				assertThat(context).as("no directory sign-in, no users to remember")
					.doesNotHaveBean(ExternalUserStore.class);
			});
	}

	@Test
	void withDirectorySignInTheRedisStoreRemembersItsUsers() {
		runner().withPropertyValues("wharf.state.store=redis", "spring.data.redis.url=" + redis.server().url(),
				"wharf.security.ldap.urls=ldap://127.0.0.1:1", "wharf.security.ldap.user-dn-pattern=uid={0},dc=example",
				"wharf.security.directory.rules[0].group=staff", "wharf.security.directory.rules[0].mounts.data=ro")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ExternalUserStore.class)).isInstanceOf(RedisExternalUserStore.class);
				assertThat(this.state.resolve(FileExternalUserStore.FILE_NAME)).doesNotExist();
			});
	}

	@Test
	void anUnknownStoreOrABadPrefixStopsStartUpNamingTheProperty() {
		runner().withPropertyValues("wharf.state.store=etcd").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("wharf.state.store");
		});
		runner().withPropertyValues("wharf.state.key-prefix=has space").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationException.class)
				.hasMessageContaining("wharf.state.key-prefix");
		});
	}

}
