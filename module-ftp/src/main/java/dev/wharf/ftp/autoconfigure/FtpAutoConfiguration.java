package dev.wharf.ftp.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the FTP and FTPS server.
 * On unless {@code wharf.ftp.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.wharf.core.autoconfigure.SecurityAutoConfiguration")
@ConditionalOnBooleanProperty(name = "wharf.ftp.enabled", matchIfMissing = true)
public final class FtpAutoConfiguration {

}
