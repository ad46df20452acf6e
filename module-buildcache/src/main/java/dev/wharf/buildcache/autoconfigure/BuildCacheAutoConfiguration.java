package dev.wharf.buildcache.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the Gradle and Maven remote build cache.
 * On unless {@code wharf.buildcache.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.wharf.core.autoconfigure.SecurityAutoConfiguration")
@ConditionalOnBooleanProperty(name = "wharf.buildcache.enabled", matchIfMissing = true)
public final class BuildCacheAutoConfiguration {

}
