package dev.wharf.filemanager.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the file manager (Filestash-compatible API and web UI).
 * On unless {@code wharf.filemanager.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.wharf.core.autoconfigure.SecurityAutoConfiguration")
@ConditionalOnBooleanProperty(name = "wharf.filemanager.enabled", matchIfMissing = true)
public final class FileManagerAutoConfiguration {

}
