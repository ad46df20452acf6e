package dev.wharf.ftp.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FtpAutoConfiguration}.
 */
class FtpAutoConfigurationTests {

	final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(FtpAutoConfiguration.class));

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		this.runner.run(context -> assertThat(context).hasSingleBean(FtpAutoConfiguration.class));
		this.runner.withPropertyValues("wharf.ftp.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(FtpAutoConfiguration.class));
	}

}
