package dev.wharf.staticfiles.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.CompositeUserDirectory;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.DirectoryProperties.RuleProperties;
import dev.wharf.core.security.DirectoryRules;
import dev.wharf.core.security.ExternalUser;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.staticfiles.server.StaticFileServer;
import dev.wharf.staticfiles.site.SharedOrigin;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StaticFilesAutoConfiguration}.
 */
class StaticFilesAutoConfigurationTests {

	final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticFilesAutoConfiguration.class))
		.withBean(MountRegistry.class,
				() -> MountRegistry.of(new Mount("data", "memory", new MemoryStorage("data", 1024))));

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		this.runner.run(context -> assertThat(context).hasSingleBean(StaticFileServer.class));
		this.runner.withPropertyValues("wharf.static.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(StaticFileServer.class));
	}

	@Test
	void publishesNothingUntilASiteIsConfigured() {
		this.runner.run(context -> assertThat(context.getBean(StaticFileServer.class).sites()).isEmpty());
		this.runner.withPropertyValues("wharf.static.sites[0].mount=data")
			.run(context -> assertThat(context.getBean(StaticFileServer.class).sites()).singleElement()
				.satisfies(site -> assertThat(site.prefix()).isEqualTo("/static")));
	}

	@Test
	void aBadSiteStopsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("wharf.static.sites[0].mount=nope")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationException.class)
				.hasMessageContaining("wharf.static.sites[0].mount"));
		this.runner.withPropertyValues("wharf.static.sites[0].mount=data", "wharf.static.sites[0].prefix=/a b")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("wharf.static.sites[0].prefix"));
	}

	@Test
	void theGroupsThatRulesLetWriteCountAsWriters() {
		DirectoryRules rules = new DirectoryRules(
				List.of(new RuleProperties("staff", List.of("user"), Map.of("data", "rw")),
						new RuleProperties("admins", List.of("admin"), Map.of("data", "rw")),
						new RuleProperties("readers", List.of("user"), Map.of("data", "ro"))),
				"data"::equals);
		ExternalUsers external = new ExternalUsers(new ExternalUserStore() {

			@Override
			public Optional<ExternalUser> find(String name) {
				return Optional.empty();
			}

			@Override
			public Mono<Void> save(ExternalUser user) {
				return Mono.empty();
			}

			@Override
			public Mono<Void> remove(String name) {
				return Mono.empty();
			}

		}, rules, Duration.ofDays(1), Clock.systemUTC());
		ConfiguredUserDirectory configured = new ConfiguredUserDirectory(List.of(), name -> true);
		SharedOrigin origin = StaticFilesAutoConfiguration.sharedOrigin(new MockEnvironment(),
				new CompositeUserDirectory(configured, List.of()), external);
		assertThat(origin.nonAdminWriters()).isEqualTo(Map.of("data", List.of("group:staff")));
	}

	@Test
	void anUnknownPropertyStopsStartUp() {
		this.runner.withPropertyValues("wharf.static.sites[0].mount=data", "wharf.static.sites[0].listings=true")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(UnboundConfigurationPropertiesException.class)
				.hasMessageContaining("wharf.static.sites[0].listings"));
		this.runner.withPropertyValues("wharf.static.chache.enabled=false")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("wharf.static.chache.enabled"));
	}

}
