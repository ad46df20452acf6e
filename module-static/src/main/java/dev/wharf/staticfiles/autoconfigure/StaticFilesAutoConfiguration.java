package dev.wharf.staticfiles.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.security.CompositeUserDirectory;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.staticfiles.server.StaticFileServer;
import dev.wharf.staticfiles.site.SharedOrigin;
import dev.wharf.staticfiles.site.StaticFilesProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the static file server. On unless
 * {@code wharf.static.enabled=false}; it serves nothing until {@code wharf.static.sites}
 * names at least one site. Its routes go in front of WebFlux on the Reactor Netty server
 * (see {@link StaticFileServer}). Sites that share the file manager's origin send their
 * files with {@code Content-Security-Policy: sandbox} unless configured otherwise (see
 * {@link StaticFilesProperties.SiteProperties#sandbox()}).
 */
@AutoConfiguration(afterName = { "dev.wharf.core.autoconfigure.StorageAutoConfiguration",
		"dev.wharf.core.autoconfigure.SecurityAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "wharf.static.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass(NettyRouteProvider.class)
@EnableConfigurationProperties(StaticFilesProperties.class)
public final class StaticFilesAutoConfiguration {

	/**
	 * The file manager's auto-configuration: another module, so known here by name only.
	 */
	static final String FILE_MANAGER = "dev.wharf.filemanager.autoconfigure.FileManagerAutoConfiguration";

	@Bean(destroyMethod = "close")
	StaticFileServer staticFileServer(StaticFilesProperties properties, MountRegistry mounts, Environment environment,
			ObjectProvider<MeterRegistry> meters, ObjectProvider<UserDirectory> users,
			ObjectProvider<ExternalUsers> externalUsers) {
		return new StaticFileServer(properties, mounts,
				environment.getProperty("management.endpoints.web.base-path", "/actuator"),
				environment.getProperty("server.compression.enabled", Boolean.class, false), meters.getIfAvailable(),
				sharedOrigin(environment, users.getIfAvailable(), externalUsers.getIfAvailable()));
	}

	/**
	 * What shares the sites' origin: the file manager when it is on the classpath and on
	 * (its own switch, {@code wharf.filemanager.enabled}, on by default), and who may
	 * write mounts: the configured users, and the groups that the rules for LDAP and OIDC
	 * users give write rights ({@code group:<name>}).
	 */
	static SharedOrigin sharedOrigin(Environment environment, @Nullable UserDirectory users,
			@Nullable ExternalUsers externalUsers) {
		boolean fileManager = ClassUtils.isPresent(FILE_MANAGER, StaticFilesAutoConfiguration.class.getClassLoader())
				&& environment.getProperty("wharf.filemanager.enabled", Boolean.class, true);
		List<User> writers = new ArrayList<>();
		if (users instanceof ConfiguredUserDirectory configured) {
			writers.addAll(configured.users());
		}
		else if (users instanceof CompositeUserDirectory composite) {
			writers.addAll(composite.configured().users());
		}
		if (externalUsers != null) {
			writers.addAll(externalUsers.rules().ruleUsers());
		}
		return SharedOrigin.of(fileManager, writers);
	}

	@Bean
	NettyServerCustomizer staticFastLane(StaticFileServer staticFileServer) {
		return staticFileServer::install;
	}

}
