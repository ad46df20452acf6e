package dev.wharf.core.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.config.PlatformProperties;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.InMemoryLoginThrottle;
import dev.wharf.core.security.InitialAdmin;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.SecurityProperties;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.state.InProcessInvalidations;
import dev.wharf.core.state.Invalidations;
import dev.wharf.core.storage.mount.MountRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import reactor.core.scheduler.Scheduler;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for users and
 * authentication: the user directory from {@code wharf.security.users} (or the generated admin), the login
 * throttle, the audit log and the {@link Authenticator} every protocol uses.
 */
@AutoConfiguration(after = StorageAutoConfiguration.class)
@EnableConfigurationProperties({ SecurityProperties.class, PlatformProperties.class })
public final class SecurityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UserDirectory userDirectory(SecurityProperties security, PlatformProperties platform, MountRegistry mounts) {
		ConfiguredUserDirectory configured = new ConfiguredUserDirectory(security.users(),
				name -> mounts.find(name).isPresent());
		if (!configured.isEmpty()) {
			return configured;
		}
		try {
			return InitialAdmin.loadOrCreate(Path.of(platform.stateDir()).toAbsolutePath().normalize(), System.out);
		}
		catch (IOException ex) {
			throw new InvalidConfigurationException("wharf.state-dir", platform.stateDir(),
					"cannot store the generated admin account: " + ex.getMessage());
		}
	}

	@Bean
	@ConditionalOnMissingBean
	LoginThrottle loginThrottle() {
		return new InMemoryLoginThrottle();
	}

	@Bean
	@ConditionalOnMissingBean
	AuditLog auditLog() {
		return new AuditLog();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	Authenticator authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit,
			ObjectProvider<Invalidations> invalidations) {
		// Password checks are CPU-bound: one thread per core, and a short queue so a flood is refused, not queued.
		int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
		Scheduler hashing = BlockingScheduler.create("wharf-auth", threads, threads * 256);
		return new Authenticator(directory, throttle, audit, hashing,
				invalidations.getIfAvailable(InProcessInvalidations::new));
	}

}
