package dev.wharf.staticfiles.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the static file server.
 * On unless {@code wharf.static.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.wharf.core.autoconfigure.SecurityAutoConfiguration")
@ConditionalOnBooleanProperty(name = "wharf.static.enabled", matchIfMissing = true)
public final class StaticFilesAutoConfiguration {

}
