package dev.wharf.staticfiles.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StaticFilesAutoConfiguration}.
 */
class StaticFilesAutoConfigurationTests {

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticFilesAutoConfiguration.class));

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		this.runner.run(context -> assertThat(context).hasSingleBean(StaticFilesAutoConfiguration.class));
		this.runner.withPropertyValues("wharf.static.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(StaticFilesAutoConfiguration.class));
	}

}
