package dev.wharf.filemanager.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FileManagerAutoConfiguration}.
 */
class FileManagerAutoConfigurationTests {

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(FileManagerAutoConfiguration.class));

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		this.runner.run(context -> assertThat(context).hasSingleBean(FileManagerAutoConfiguration.class));
		this.runner.withPropertyValues("wharf.filemanager.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(FileManagerAutoConfiguration.class));
	}

}
