package dev.wharf.buildcache.testsupport;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The smallest application with the build cache: every auto-configuration on the test
 * class path (core's storage and security, WebFlux on Netty, the build cache), and a
 * meter registry tests can read.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class BuildCacheTestApplication {

	@Bean
	MeterRegistry meterRegistry() {
		return new SimpleMeterRegistry();
	}

}
