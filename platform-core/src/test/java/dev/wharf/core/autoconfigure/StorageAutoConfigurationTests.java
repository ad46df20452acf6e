package dev.wharf.core.autoconfigure;

import java.nio.file.Path;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.metrics.MeteredStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link StorageAutoConfiguration}.
 */
class StorageAutoConfigurationTests {

	@TempDir
	Path temp;

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class));

	@Test
	void buildsEveryConfiguredMount() {
		this.runner
			.withPropertyValues("wharf.storage.mounts.data.type=local",
					"wharf.storage.mounts.data.root=" + this.temp.resolve("d"),
					"wharf.storage.mounts.scratch.type=memory", "wharf.storage.mounts.scratch.max-size=1MB")
			.run(context -> {
				MountRegistry mounts = context.getBean(MountRegistry.class);
				assertThat(mounts.all()).extracting(Mount::name).containsExactly("data", "scratch");
				assertThat(mounts.get("data").type()).isEqualTo("local");
				assertThat(this.temp.resolve("d")).isDirectory();
			});
	}

	@Test
	void withoutMountsThereIsALocalDataMount() {
		this.runner.run(context -> {
			MountRegistry mounts = context.getBean(MountRegistry.class);
			assertThat(mounts.all()).singleElement().satisfies(mount -> {
				assertThat(mount.name()).isEqualTo(MountRegistry.DEFAULT_MOUNT);
				assertThat(mount.type()).isEqualTo("local");
			});
		});
	}

	@Test
	void anUnknownTypeStopsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("wharf.storage.mounts.data.type=locl").run(context -> {
			assertThat(context).hasFailed();
			InvalidConfigurationException cause = rootCause(context.getStartupFailure());
			assertThat(cause.property()).isEqualTo("wharf.storage.mounts.data.type");
			assertThat(cause.reason()).contains("known types: local, memcached, memory");
		});
	}

	@Test
	void aBadValueStopsStartUpNamingTheProperty() {
		this.runner
			.withPropertyValues("wharf.storage.mounts.scratch.type=memory", "wharf.storage.mounts.scratch.max-size=0B")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.storage.mounts.scratch.max-size"));
		this.runner
			.withPropertyValues("wharf.storage.mounts.scratch.type=memory",
					"wharf.storage.mounts.scratch.max-size=100TB")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).reason()).contains("heap"));
		this.runner.withPropertyValues("wharf.storage.mounts.Bad_Name.type=memory")
			.run(context -> assertThat(context).hasFailed());
		this.runner
			.withPropertyValues("wharf.storage.mounts.shared.servers[0]=127.0.0.1:1",
					"wharf.storage.mounts.shared.servers[1]=127.0.0.1:2")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.storage.mounts.shared.type"));
		this.runner.withPropertyValues("wharf.storage.mounts.data.root=/tmp/x")
			.run(context -> assertThat(rootCause(context.getStartupFailure()).property())
				.isEqualTo("wharf.storage.mounts.data.type"));
	}

	@Test
	void anUnknownPropertyStopsStartUp() {
		this.runner
			.withPropertyValues("wharf.storage.mounts.scratch.type=memory", "wharf.storage.mounts.scratch.max-sise=1MB")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining("wharf.storage.mounts.scratch.max-sise");
			});
	}

	@Test
	void theFailureReportNamesPropertyValueAndReason() {
		this.runner.withPropertyValues("wharf.storage.mounts.data.type=locl").run(context -> {
			FailureAnalysis analysis = new dev.wharf.core.config.InvalidConfigurationFailureAnalyzerAccess()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("Property: wharf.storage.mounts.data.type")
				.contains("Value:    locl")
				.contains("unknown mount type");
			assertThat(analysis.getAction()).contains("wharf.storage.mounts.data.type");
		});
	}

	@Test
	void mountsAreMeteredWhenThereIsAMeterRegistry() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("wharf.storage.mounts.scratch.type=memory")
			.run(context -> {
				Mount mount = context.getBean(MountRegistry.class).get("scratch");
				assertThat(mount.storage()).isInstanceOf(MeteredStorage.class);
				mount.storage().write(StoragePath.parse("/m"), content("12345"), WriteOptions.replace()).block(TIMEOUT);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("wharf.storage.operations")
					.tags("mount", "scratch", "operation", "write", "outcome", "success")
					.timer()
					.count()).isEqualTo(1);
				assertThat(meters.get("wharf.storage.bytes").tags("direction", "written").counter().count())
					.isEqualTo(5);
				mount.storage().write(StoragePath.parse("/m"), content("6"), WriteOptions.replace()).block(TIMEOUT);
				assertThatThrownBy(() -> mount.storage().stat(StoragePath.parse("/missing")).block(TIMEOUT))
					.isInstanceOf(NotFoundException.class);
				assertThat(meters.get("wharf.storage.operations")
					.tags("mount", "scratch", "operation", "write", "outcome", "success")
					.timer()
					.count()).isEqualTo(2);
				assertThat(meters.get("wharf.storage.operations")
					.tags("mount", "scratch", "operation", "stat", "outcome", "not_found")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void everyMountReportsItsHealth() {
		this.runner.withPropertyValues("wharf.storage.mounts.scratch.type=memory").run(context -> {
			CompositeReactiveHealthContributor mounts = context.getBean("mountsHealthContributor",
					CompositeReactiveHealthContributor.class);
			Health health = ((ReactiveHealthIndicator) mounts.getContributor("scratch")).health().block(TIMEOUT);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("type", "memory");
		});
	}

	static InvalidConfigurationException rootCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidConfigurationException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidConfigurationException in " + failure);
	}

}
