package dev.wharf.staticfiles.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.testsupport.ApacheBench;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.netty.http.client.HttpClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The static server inside a Spring Boot application, configured as a user would: its
 * routes sit in front of WebFlux, a site at {@code /} with a host name leaves other hosts
 * and the actuator to the rest of the application, responses are counted, and the real
 * {@code ab -k} (the Socko table's tool) completes against it on kept-alive connections.
 */
@SpringBootTest(classes = StaticFilesApplicationTests.TestApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "wharf.static.sites[0].prefix=/", "wharf.static.sites[0].hosts[0]=www.example.test",
				"wharf.static.sites[0].mount=data", "wharf.static.sites[0].root=/www",
				"wharf.static.sites[1].prefix=/static/", "wharf.static.sites[1].mount=data",
				"wharf.static.sites[1].root=/public" })
class StaticFilesApplicationTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		WharfTestProperties.localMount(registry, temp);
		Files.createDirectories(temp.resolve("data/www"));
		Files.createDirectories(temp.resolve("data/public"));
		Files.writeString(temp.resolve("data/www/index.html"), "<h1>www</h1>");
		Files.writeString(temp.resolve("data/public/hello.txt"), "hello, static");
	}

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	String get(String path, String host) {
		return HttpClient.create()
			.headers(headers -> headers.set("Host", host))
			.get()
			.uri(URI.create("http://127.0.0.1:" + this.port + path))
			.responseSingle((response,
					body) -> body.asString().defaultIfEmpty("").map(text -> response.status().code() + " " + text))
			.block(Duration.ofSeconds(30));
	}

	@Test
	void staticRoutesSitInFrontOfWebFlux() {
		assertThat(get("/static/hello.txt", "localhost")).isEqualTo("200 hello, static");
		assertThat(get("/api/hello", "localhost")).isEqualTo("200 from webflux");
		assertThat(get("/static/missing", "localhost")).isEqualTo("404 Not Found\n");
	}

	@Test
	void aSiteAtTheRootOfAHostLeavesOtherHostsAndTheActuatorToWharf() {
		assertThat(get("/", "www.example.test")).isEqualTo("200 <h1>www</h1>");
		assertThat(get("/", "www.example.test:8334")).isEqualTo("200 <h1>www</h1>");
		assertThat(get("/api/hello", "www.example.test")).startsWith("404");
		assertThat(get("/actuator/health", "www.example.test")).isEqualTo("200 UP");
		assertThat(get("/api/hello", "files.example.test")).isEqualTo("200 from webflux");
		assertThat(get("/", "files.example.test")).isEqualTo("200 root of webflux");
	}

	@Test
	void responsesAreCountedPerSiteAndStatus() {
		double before = count("/static", "200");
		get("/static/hello.txt", "localhost");
		get("/static/hello.txt", "localhost");
		assertThat(count("/static", "200")).isEqualTo(before + 2);
		get("/static/nothing-here", "localhost");
		assertThat(count("/static", "404")).isGreaterThanOrEqualTo(1);
	}

	private double count(String site, String status) {
		io.micrometer.core.instrument.Counter counter = this.meters.find("wharf.static.requests")
			.tag("site", site)
			.tag("status", status)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	@Test
	void apacheBenchKeepAliveCompletes() throws Exception {
		assertThat(ApacheBench.keepAlive("http://127.0.0.1:" + this.port + "/static/hello.txt", 10, 2000))
			.contains("Document Length:        13 bytes");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		RouterFunction<ServerResponse> rest() {
			return RouterFunctions.route()
				.GET("/api/hello", request -> ServerResponse.ok().bodyValue("from webflux"))
				.GET("/actuator/health", request -> ServerResponse.ok().bodyValue("UP"))
				.GET("/", request -> ServerResponse.ok().bodyValue("root of webflux"))
				.build();
		}

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
