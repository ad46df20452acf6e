package dev.wharf.core.state;

import java.util.Locale;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves Spring Boot's Redis auto-configurations (connection factory, templates, the
 * {@code redis} health indicator, repositories, observation) out of the application
 * unless {@code wharf.state.store} is {@code redis}. The Redis client is always on the
 * class path, and Boot would otherwise create a connection factory and a health indicator
 * that tries {@code localhost:6379} and reports the whole application {@code DOWN} on a
 * single node that never uses Redis. With the default store nothing of Redis is created,
 * nothing connects and health has no {@code redis} component; with {@code redis} Boot's
 * own {@code spring.data.redis.*} settings apply unchanged (URL, password, TLS, timeouts,
 * sentinel, cluster).
 *
 * <p>
 * Registered in {@code META-INF/spring.factories}; Spring Boot calls it once per start,
 * on the starting thread.
 */
public final class RedisAutoConfigurationFilter implements AutoConfigurationImportFilter, EnvironmentAware {

	/** The package of every auto-configuration this filter holds back. */
	static final String REDIS_AUTO_CONFIGURATIONS = "org.springframework.boot.data.redis.";

	private @Nullable Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata autoConfigurationMetadata) {
		boolean redis = usesRedis(this.environment);
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < autoConfigurationClasses.length; i++) {
			String candidate = autoConfigurationClasses[i];
			matches[i] = redis || candidate == null || !candidate.startsWith(REDIS_AUTO_CONFIGURATIONS);
		}
		return matches;
	}

	/**
	 * Whether the environment selects the Redis store.
	 * @param environment the environment, or {@code null} if there is none
	 * @return whether {@code wharf.state.store} is {@code redis} (in any case)
	 */
	static boolean usesRedis(@Nullable Environment environment) {
		String store = (environment != null) ? environment.getProperty(StateProperties.STORE_PROPERTY) : null;
		return store != null && store.trim().toLowerCase(Locale.ROOT).equals("redis");
	}

}
