package dev.wharf.app.actuator;

import java.nio.file.Path;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.health.actuate.endpoint.ReactiveHealthEndpointWebExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The actuator as Wharf exposes it. It listens on the management port
 * ({@code management.server.port}, 8335 by default, on 127.0.0.1 as the HTTP port does):
 * metrics and everything else the actuator has are not on the public port, where anybody
 * can ask. The public port keeps health for probes, without details
 * ({@link PublicHealth}). No metric names a host path: the disk-space meters'
 * {@code path} tag is made relative to the working directory.
 */
@Configuration(proxyBeanMethods = false)
final class ActuatorConfiguration {

	/**
	 * Micrometer's disk-space meters, tagged with the absolute path of the folder they
	 * watch.
	 */
	private static final String DISK_METERS = "disk.";

	@Bean
	MeterFilter diskSpaceWithoutHostPaths() {
		Path workingDirectory = Path.of("").toAbsolutePath();
		return new MeterFilter() {

			@Override
			public Meter.Id map(Meter.Id id) {
				String path = id.getTag("path");
				if (path == null || !id.getName().startsWith(DISK_METERS)) {
					return id;
				}
				return id.replaceTags(id.getTags()
					.stream()
					.map(tag -> tag.getKey().equals("path") ? Tag.of("path", relative(workingDirectory, path)) : tag)
					.toList());
			}

		};
	}

	/**
	 * A path as seen from the working directory: {@code .} for the directory itself.
	 * @param workingDirectory the absolute working directory
	 * @param path an absolute path
	 * @return the relative path, never an absolute one ({@code other} for a path on
	 * another root)
	 */
	static String relative(Path workingDirectory, String path) {
		try {
			String relative = workingDirectory.relativize(Path.of(path).toAbsolutePath().normalize()).toString();
			return relative.isEmpty() ? "." : relative;
		}
		catch (IllegalArgumentException ex) {
			return "other";
		}
	}

	/** The public port's health, when the actuator has a port of its own. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
	static final class PublicHealthConfiguration {

		@Bean
		RouterFunction<ServerResponse> publicHealthRoutes(ObjectProvider<ReactiveHealthEndpointWebExtension> health,
				Environment environment) {
			return new PublicHealth(health, environment.getProperty("management.endpoints.web.base-path", "/actuator"))
				.routes();
		}

	}

}
