package dev.wharf.buildcache.http;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Maven 3.9 build with the Apache Maven build-cache extension against Wharf on
 * 127.0.0.1, on a local-disk mount: the first build misses and stores its outputs, a
 * clean second build with an empty local cache is restored from Wharf. Credentials come
 * from settings.xml, and Maven sends them on GET only after a 401 challenge, so the
 * challenge is exercised. The Maven is the one running this build (Surefire passes
 * {@code maven.home}), on the same local repository, so after the first run nothing is
 * downloaded.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class MavenBuildCacheTests {

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.localMount(registry, temp);
		CacheTestUsers.register(registry);
		registry.add("wharf.storage.mounts.data.sync-writes", () -> "false");
	}

	@Test
	void aCleanSecondBuildIsRestoredFromTheCache(@TempDir Path work) throws Exception {
		Path maven = mavenExecutable();
		Path project = fixture(work.resolve("project"));
		Path settings = settings(work.resolve("settings.xml"));
		double challenges = count("wharf.buildcache.rejections", "unauthorized");
		double puts = count("wharf.buildcache.puts", null);

		String first = maven(maven, project, settings, "package", "-Dmaven.build.cache.remote.save.enabled=true",
				"-Dmaven.build.cache.location=" + work.resolve("local-cache-1"));
		assertThat(first).contains("BUILD SUCCESS").doesNotContain("Found cached build");
		// buildinfo.xml, the jar and the build report.
		assertThat(count("wharf.buildcache.puts", null)).isGreaterThanOrEqualTo(puts + 2);
		assertThat(count("wharf.buildcache.rejections", "unauthorized")).isGreaterThan(challenges);
		assertThat(first).doesNotContain("Unable to save to remote cache", "Error downloading cache item");

		double hits = count("wharf.buildcache.hits", null);
		String second = maven(maven, project, settings, "clean", "package",
				"-Dmaven.build.cache.location=" + work.resolve("local-cache-2"));
		assertThat(second).contains("BUILD SUCCESS", "Found cached build",
				"Skipping plugin execution (cached): compiler:compile");
		assertThat(second).doesNotContain("Error downloading cache item");
		assertThat(count("wharf.buildcache.hits", null)).isGreaterThanOrEqualTo(hits + 2);
		assertThat(project.resolve("target/demo-1.0.jar")).isNotEmptyFile();
	}

	private double count(String name, String reason) {
		var search = this.meters.find(name).tag("mount", "data");
		if (reason != null) {
			search = search.tag("reason", reason);
		}
		var counter = search.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static Path mavenExecutable() {
		String home = System.getProperty("wharf.test.maven-home");
		Path maven = (home != null) ? Path.of(home, "bin", "mvn") : null;
		Requirements.require(maven != null && Files.isExecutable(maven),
				"Maven 3.9 (run the tests through ./mvnw, which passes its maven.home)");
		return maven;
	}

	private Path fixture(Path project) throws IOException, URISyntaxException {
		Path source = Path.of(MavenBuildCacheTests.class.getResource("/maven-fixture").toURI());
		try (Stream<Path> files = Files.walk(source)) {
			for (Path file : files.toList()) {
				Path target = project.resolve(source.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(target);
				}
				else {
					String text = Files.readString(file, StandardCharsets.UTF_8)
						.replace("@CACHE_URL@", "http://127.0.0.1:" + this.port + "/cache");
					Files.writeString(target, text, StandardCharsets.UTF_8);
				}
			}
		}
		assertThat(project.resolve(".mvn/maven-build-cache-config.xml")).exists();
		return project;
	}

	private static Path settings(Path file) throws IOException {
		Files.writeString(file, """
				<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0">
				  <servers>
				    <server>
				      <id>wharf-cache</id>
				      <username>%s</username>
				      <password>%s</password>
				    </server>
				  </servers>
				</settings>
				""".formatted(CacheTestUsers.WRITER, CacheTestUsers.WRITER_PASSWORD), StandardCharsets.UTF_8);
		return file;
	}

	private static String maven(Path maven, Path project, Path settings, String... arguments) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(maven.toString(), "-B", "-nsu", "-Dstyle.color=never", "-s", settings.toString()));
		String repository = System.getProperty("wharf.test.maven-repository");
		if (repository != null) {
			command.add("-Dmaven.repo.local=" + repository);
		}
		command.addAll(List.of(arguments));
		Path log = Files.createTempFile(project.getParent(), "maven", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
		builder.environment().remove("MAVEN_ARGS");
		builder.environment().put("MAVEN_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1");
		Process process = builder.start();
		try {
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				throw new AssertionError("Maven did not finish within 5 minutes:\n" + Files.readString(log));
			}
		}
		finally {
			process.destroyForcibly();
		}
		String output = Files.readString(log, StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as(output).isZero();
		return output;
	}

}
