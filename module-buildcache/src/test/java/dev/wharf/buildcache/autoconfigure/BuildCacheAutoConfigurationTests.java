package dev.wharf.buildcache.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BuildCacheAutoConfiguration}.
 */
class BuildCacheAutoConfigurationTests {

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BuildCacheAutoConfiguration.class));

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		this.runner.run(context -> assertThat(context).hasSingleBean(BuildCacheAutoConfiguration.class));
		this.runner.withPropertyValues("wharf.buildcache.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(BuildCacheAutoConfiguration.class));
	}

}
