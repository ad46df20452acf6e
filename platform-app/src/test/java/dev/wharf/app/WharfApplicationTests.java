package dev.wharf.app;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.wharf.buildcache.autoconfigure.BuildCacheAutoConfiguration;
import dev.wharf.core.session.InMemorySessionStore;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.state.redis.RedisState;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.filemanager.autoconfigure.FileManagerAutoConfiguration;
import dev.wharf.ftp.autoconfigure.FtpAutoConfiguration;
import dev.wharf.staticfiles.autoconfigure.StaticFilesAutoConfiguration;
import org.junit.jupiter.api.Test;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on random ports: every module on; health on the public port
 * (statuses only), metrics and the rest of the actuator on the management port only,
 * naming no host path.
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

	@LocalManagementPort
	int managementPort;

	@Test
	void everyModuleIsOnByDefault() {
		assertThat(this.context.getBeansOfType(FileManagerAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(FtpAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(BuildCacheAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(StaticFilesAutoConfiguration.class)).hasSize(1);
		assertThat(this.context.getBean(MountRegistry.class).get("data").type()).isEqualTo("local");
	}

	@Test
	void theDefaultLocalStateStoreLeavesRedisOut() {
		assertThat(this.context.getBeanNamesForType(ReactiveRedisConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(RedisState.class)).isEmpty();
		assertThat(this.context.getBean(SessionStore.class)).isInstanceOf(InMemorySessionStore.class);
		management().get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.redis")
			.doesNotExist();
	}

	@Test
	void healthIsUpWithLivenessAndReadinessGroups() {
		this.client.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP")
			.jsonPath("$.components.mounts.components.data.status")
			.isEqualTo("UP");
		this.client.get()
			.uri("/actuator/health/liveness")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP");
		this.client.get()
			.uri("/actuator/health/readiness")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP");
	}

	@Test
	void prometheusMetricsIncludeJvmAndStorageOnTheManagementPortAndNamesNoHostPath() {
		this.context.getBean(MountRegistry.class).get("data").storage().stat(StoragePath.root()).block();
		String metrics = management().get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(metrics).contains("jvm_memory_used_bytes")
			.contains("wharf_storage_operations_seconds_count{")
			.contains("mount=\"data\"")
			.contains("disk_free_bytes{")
			.contains("path=\".\"");
		assertThat(metrics).doesNotContain(temp.toString()).doesNotContain(Path.of("").toAbsolutePath().toString());
		// A label whose value is a path is a request's URI template, never a file's.
		Matcher pathLabel = Pattern.compile("(\\w+)=\"/[^\"]*\"").matcher(metrics);
		while (pathLabel.find()) {
			assertThat(pathLabel.group(1)).as(pathLabel.group()).isEqualTo("uri");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/prometheus", "/actuator/info", "/actuator", "/actuator/metrics" })
	void theActuatorIsNotOnThePublicPort(String path) {
		this.client.get().uri(path).exchange().expectStatus().isNotFound();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness",
			"/actuator/health/mounts", "/actuator/health/buildcache" })
	void healthOnThePublicPortHasStatusesOnlyNeverDetails(String path) {
		String body = this.client.get()
			.uri(path)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(body).contains("\"status\":\"UP\"")
			.doesNotContain("details")
			.doesNotContain(temp.toString())
			.doesNotContain(Path.of("").toAbsolutePath().toString());
		this.client.head().uri(path).exchange().expectStatus().isOk();
		management().get().uri(path).exchange().expectStatus().isOk();
	}

	private WebTestClient management() {
		return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + this.managementPort).build();
	}

}
