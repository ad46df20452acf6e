package dev.wharf.core.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.config.PlatformProperties;
import dev.wharf.core.session.ApiTokenStore;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.core.session.FileApiTokenStore;
import dev.wharf.core.session.InMemoryNewSessionLimits;
import dev.wharf.core.session.InMemorySessionStore;
import dev.wharf.core.session.NewSessionLimits;
import dev.wharf.core.session.SessionProperties;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.share.FileShareStore;
import dev.wharf.core.share.ShareStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for sessions and API tokens: an in-memory {@link SessionStore} and
 * {@link NewSessionLimits}, and a {@link FileApiTokenStore} and a {@link FileShareStore}
 * in {@code wharf.state-dir}, each replaceable by a bean of its SPI (the shared stores
 * for replicas that {@link dev.wharf.core.state.StateAutoConfiguration} makes).
 */
@AutoConfiguration(after = SecurityAutoConfiguration.class)
@EnableConfigurationProperties({ SessionProperties.class, PlatformProperties.class })
public final class SessionAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SessionStore sessionStore(SessionProperties properties) {
		return new InMemorySessionStore(properties.maximumSessions());
	}

	@Bean
	@ConditionalOnMissingBean
	NewSessionLimits newSessionLimits(SessionProperties properties) {
		return new InMemoryNewSessionLimits(properties.newSessions(), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	Sessions sessions(SessionStore store, NewSessionLimits limits, SessionProperties properties) {
		return new Sessions(store, limits, properties, Clock.systemUTC());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ApiTokenStore apiTokenStore(PlatformProperties platform) {
		Path file = Path.of(platform.stateDir()).toAbsolutePath().normalize().resolve(FileApiTokenStore.FILE_NAME);
		// Token changes are rare and small: one thread is plenty, and it never runs on an
		// event loop.
		return new FileApiTokenStore(file, BlockingScheduler.create("wharf-api-tokens", 1, 1000),
				Duration.ofSeconds(5));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ShareStore shareStore(PlatformProperties platform) {
		Path file = Path.of(platform.stateDir()).toAbsolutePath().normalize().resolve(FileShareStore.FILE_NAME);
		// As for tokens: changes are small (a download counted rewrites a line), one
		// thread is plenty.
		return new FileShareStore(file, BlockingScheduler.create("wharf-shares", 1, 1000), Duration.ofSeconds(5));
	}

	@Bean
	@ConditionalOnMissingBean
	ApiTokens apiTokens(ApiTokenStore store) {
		return new ApiTokens(store, Clock.systemUTC());
	}

}
