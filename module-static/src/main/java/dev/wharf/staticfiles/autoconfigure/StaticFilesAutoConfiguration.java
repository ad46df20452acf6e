package dev.wharf.staticfiles.autoconfigure;

import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.staticfiles.server.StaticFileServer;
import dev.wharf.staticfiles.site.StaticFilesProperties;
import io.micrometer.core.instrument.MeterRegistry;
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

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the static file server.
 * On unless {@code wharf.static.enabled=false}; it serves nothing until {@code wharf.static.sites} names at
 * least one site. Its routes go in front of WebFlux on the Reactor Netty server (see {@link StaticFileServer}).
 */
@AutoConfiguration(afterName = { "dev.wharf.core.autoconfigure.StorageAutoConfiguration",
		"dev.wharf.core.autoconfigure.SecurityAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "wharf.static.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass(NettyRouteProvider.class)
@EnableConfigurationProperties(StaticFilesProperties.class)
public final class StaticFilesAutoConfiguration {

	@Bean(destroyMethod = "close")
	StaticFileServer staticFileServer(StaticFilesProperties properties, MountRegistry mounts, Environment environment,
			ObjectProvider<MeterRegistry> meters) {
		return new StaticFileServer(properties, mounts,
				environment.getProperty("management.endpoints.web.base-path", "/actuator"),
				environment.getProperty("server.compression.enabled", Boolean.class, false), meters.getIfAvailable());
	}

	@Bean
	NettyServerCustomizer staticFastLane(StaticFileServer staticFileServer) {
		return staticFileServer::install;
	}

}
