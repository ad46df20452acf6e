package dev.wharf.app;

import java.nio.file.Path;

import dev.wharf.buildcache.autoconfigure.BuildCacheAutoConfiguration;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.filemanager.autoconfigure.FileManagerAutoConfiguration;
import dev.wharf.ftp.autoconfigure.FtpAutoConfiguration;
import dev.wharf.staticfiles.autoconfigure.StaticFilesAutoConfiguration;
import org.junit.jupiter.api.Test;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on a random port: every module on, health and metrics answering.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class WharfApplicationTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.localMount(registry, temp);
	}

	@Autowired
	WebTestClient client;

	@Autowired
	ApplicationContext context;

	@Test
	void everyModuleIsOnByDefault() {
		assertThat(this.context.getBeansOfType(FileManagerAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(FtpAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(BuildCacheAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(StaticFilesAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBean(MountRegistry.class).get("data").type()).isEqualTo("local");
	}

	@Test
	void healthIsUpWithLivenessAndReadinessGroups() {
		this.client.get().uri("/actuator/health").exchange().expectStatus().isOk()
			.expectBody().jsonPath("$.status").isEqualTo("UP")
			.jsonPath("$.components.mounts.components.data.status").isEqualTo("UP");
		this.client.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk()
			.expectBody().jsonPath("$.status").isEqualTo("UP");
		this.client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk()
			.expectBody().jsonPath("$.status").isEqualTo("UP");
	}

	@Test
	void prometheusMetricsIncludeJvmAndStorage() {
		this.context.getBean(MountRegistry.class).get("data").storage().stat(StoragePath.root()).block();
		String metrics = this.client.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
			.expectBody(String.class).returnResult().getResponseBody();
		assertThat(metrics).contains("jvm_memory_used_bytes").contains("wharf_storage_operations_seconds_count{")
			.contains("mount=\"data\"");
	}

}
