package dev.wharf.core.state;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.SecurityAutoConfiguration.ExternalSignIn;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.autoconfigure.SessionAutoConfiguration;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.session.ApiTokenStore;
import dev.wharf.core.session.NewSessionLimits;
import dev.wharf.core.session.SessionProperties;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.state.redis.RedisApiTokenStore;
import dev.wharf.core.state.redis.RedisExternalUserStore;
import dev.wharf.core.state.redis.RedisInvalidations;
import dev.wharf.core.state.redis.RedisLocks;
import dev.wharf.core.state.redis.RedisLoginThrottle;
import dev.wharf.core.state.redis.RedisNewSessionLimits;
import dev.wharf.core.state.redis.RedisSessionStore;
import dev.wharf.core.state.redis.RedisShareStore;
import dev.wharf.core.state.redis.RedisState;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.resource.Delay;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} that picks where the state replicas must agree on lives
 * ({@link StateProperties}): with {@code wharf.state.store: local} (the default) the
 * in-process implementations, with {@code redis} the Redis ones on Spring Boot's reactive
 * Redis client. Runs before the security and session auto-configurations, whose
 * in-process defaults step aside for the beans made here. Spring Boot's Redis
 * auto-configurations are only present with {@code redis}
 * ({@link RedisAutoConfigurationFilter}).
 */
@AutoConfiguration(before = { SecurityAutoConfiguration.class, SessionAutoConfiguration.class },
		after = DataRedisReactiveAutoConfiguration.class)
@EnableConfigurationProperties({ StateProperties.class, SessionProperties.class })
public final class StateAutoConfiguration {

	/**
	 * How long a Redis command may take when {@code spring.data.redis.timeout} does not
	 * say.
	 */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	/** The longest pause between attempts to reconnect to Redis. */
	static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(2);

	/**
	 * How often each replica reads every external user from Redis, for changes it missed
	 * while disconnected.
	 */
	static final Duration EXTERNAL_USERS_REFRESH = Duration.ofSeconds(30);

	/**
	 * Pauses between attempts to reconnect: from 100 ms, doubling, up to
	 * {@link #MAX_RECONNECT_DELAY}.
	 */
	public static final Delay RECONNECT_DELAY = Delay.exponential(Duration.ofMillis(100), MAX_RECONNECT_DELAY, 2,
			TimeUnit.MILLISECONDS);

	/** The in-process state, for one replica. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = StateProperties.STORE_PROPERTY, havingValue = "local", matchIfMissing = true)
	static class LocalStateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		Locks locks() {
			return new InProcessLocks();
		}

		@Bean
		@ConditionalOnMissingBean
		Invalidations invalidations() {
			return new InProcessInvalidations();
		}

	}

	/** The state in Redis, shared by every replica. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = StateProperties.STORE_PROPERTY, havingValue = "redis")
	static class RedisStateConfiguration {

		/**
		 * Commands fail at once while the connection is down, instead of queueing until
		 * their timeout.
		 */
		@Bean
		LettuceClientOptionsBuilderCustomizer wharfFailFastWhileDisconnected() {
			return options -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS);
		}

		/**
		 * Reconnects within {@link #MAX_RECONNECT_DELAY} of Redis coming back (Lettuce's
		 * own delay grows to 30 s).
		 */
		@Bean
		ClientResourcesBuilderCustomizer wharfReconnectSoon() {
			return resources -> resources.reconnectDelay(RECONNECT_DELAY);
		}

		@Bean
		RedisState redisState(ReactiveStringRedisTemplate redis, StateProperties state, DataRedisProperties client) {
			Duration timeout = (client.getTimeout() != null) ? client.getTimeout() : DEFAULT_TIMEOUT;
			return new RedisState(redis, state.keyPrefix(), timeout);
		}

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		RedisInvalidations invalidations(RedisState state, ReactiveRedisConnectionFactory connections) {
			return new RedisInvalidations(state, connections);
		}

		@Bean
		@ConditionalOnMissingBean
		Locks locks(RedisState state) {
			return new RedisLocks(state);
		}

		@Bean
		@ConditionalOnMissingBean
		LoginThrottle loginThrottle(RedisState state) {
			return new RedisLoginThrottle(state, Clock.systemUTC());
		}

		@Bean
		@ConditionalOnMissingBean
		NewSessionLimits newSessionLimits(RedisState state, SessionProperties sessions) {
			return new RedisNewSessionLimits(state, sessions.newSessions(), Clock.systemUTC());
		}

		@Bean
		@ConditionalOnMissingBean
		SessionStore sessionStore(RedisState state, RedisInvalidations invalidations, SessionProperties sessions) {
			return new RedisSessionStore(state, invalidations, invalidations.channel(), RedisSessionStore.CACHE_TIME,
					sessions.idleTimeout());
		}

		@Bean
		@ConditionalOnMissingBean
		ApiTokenStore apiTokenStore(RedisState state, RedisInvalidations invalidations) {
			return new RedisApiTokenStore(state, invalidations, invalidations.channel(), RedisSessionStore.CACHE_TIME,
					Clock.systemUTC());
		}

		/**
		 * LDAP and OIDC users in Redis: replicas need not share a state folder to know
		 * who signed in elsewhere.
		 */
		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		@Conditional(ExternalSignIn.class)
		ExternalUserStore externalUserStore(RedisState state, RedisInvalidations invalidations) {
			return new RedisExternalUserStore(state, invalidations, EXTERNAL_USERS_REFRESH);
		}

		@Bean
		@ConditionalOnMissingBean
		ShareStore shareStore(RedisState state) {
			return new RedisShareStore(state);
		}

	}

}
