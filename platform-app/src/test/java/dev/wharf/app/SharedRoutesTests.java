package dev.wharf.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modules that answer on Reactor Netty's routes ahead of WebFlux share one server: a
 * static site at {@code /} (with the file manager off, as the README says) takes every
 * path except the build cache's base path and the actuator's, even where its folder holds
 * a file of the same name.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class SharedRoutesTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.localMount(registry, temp);
		try {
			Path data = Files.createDirectories(temp.resolve("data"));
			Files.writeString(data.resolve("hello.txt"), "hello from the site");
			Files.writeString(Files.createDirectories(data.resolve("cache")).resolve("key"), "a file of the site");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		registry.add("wharf.filemanager.enabled", () -> "false");
		registry.add("wharf.static.sites[0].prefix", () -> "/");
		registry.add("wharf.static.sites[0].mount", () -> "data");
	}

	@Autowired
	WebTestClient client;

	@Test
	void theSiteAtTheRootServesItsFiles() {
		this.client.get()
			.uri("/hello.txt")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("hello from the site");
	}

	@Test
	void theBuildCacheKeepsItsBasePath() {
		this.client.get()
			.uri("/cache")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((body) -> assertThat(body).contains("\"status\":\"UP\""));
		// The cache asks for a login (anonymous access is off); the site would have sent
		// its file.
		this.client.get()
			.uri("/cache/key")
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.expectBody(String.class)
			.value((body) -> assertThat(body).doesNotContain("a file of the site"));
	}

	@Test
	void theActuatorStaysWithWharf() {
		this.client.get().uri("/actuator/health").exchange().expectStatus().isOk();
	}

}
