package dev.wharf.loadtests.smoke;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.gatling.app.Gatling$;
import io.gatling.javaapi.core.Simulation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.wharf.loadtests.LevelResult;
import dev.wharf.loadtests.ftp.FtpLoadDriver;
import dev.wharf.loadtests.simulations.ActuatorSimulation;
import dev.wharf.loadtests.simulations.FilestashBenchmarkSimulation;
import dev.wharf.loadtests.simulations.FilestashLoadTestSimulation;
import dev.wharf.loadtests.simulations.RbcsSimulation;
import dev.wharf.loadtests.simulations.ReplicasSimulation;
import dev.wharf.loadtests.simulations.SockoSimulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs every simulation (and the FTP driver) for a few seconds against the packaged jar,
 * started once with the load tests' configuration, so that none of them rots. Each smoke
 * must get every request answered correctly ({@code strict}): a failure means the
 * simulation and the server disagree about a contract.
 *
 * <p>
 * Which smokes run is the Maven property {@code wharf.smoke.simulations} in
 * {@code load-tests/pom.xml} (names: actuator, static, filemanager, buildcache, ftp,
 * replicas, or all; the pom lists all six), or {@code -Dwharf.smoke.simulations=…} on the
 * command line. A smoke left out of it is reported as skipped.
 */
class SimulationSmokeIT {

	@TempDir
	static Path dir;

	private static BenchServer server;

	private static Path results;

	@BeforeAll
	static void startWharf() throws Exception {
		Path jar = Path.of(System.getProperty("wharf.jar", "../platform-app/target/wharf.jar")).toAbsolutePath();
		assertThat(jar).as("the packaged jar: run ./mvnw package (or verify) from the root first").exists();
		server = BenchServer.start(jar, Path.of("config").toAbsolutePath(), dir);
		results = dir.resolve("results.tsv");
	}

	@AfterAll
	static void stopWharf() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	static List<String> smokes() {
		return List.of("actuator", "static", "filemanager", "buildcache", "ftp", "replicas");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("smokes")
	void runs(String smoke) throws Exception {
		List<String> enabled = List.of(System.getProperty("wharf.smoke.simulations", "actuator").split(","));
		assumeTrue(enabled.contains("all") || enabled.contains(smoke), () -> smoke
				+ " is switched off: it is not in wharf.smoke.simulations (load-tests/pom.xml or -D on the command line)");
		Map<String, String> common = Map.of("baseUrl", server.baseUrl(), "user", "bench", "password", server.password,
				"results", results.toString(), "strict", "true", "scale", "0.002", "maxConcurrency", "10");
		switch (smoke) {
			case "actuator" ->
				gatling(ActuatorSimulation.class, common, Map.of("levels", "1,10", "requests", "200"), "actuator");
			case "static" -> gatling(SockoSimulation.class, common, Map.of("scale", "0.001"), "socko");
			case "filemanager" -> {
				// "root" is left out: its levels are fixed (up to 4,000 connections,
				// 50,000 requests), too big for a
				// smoke run; "static" requests the same page ("/", the web UI) at the
				// smoke's small levels.
				Map<String, String> paths = Map.of("parts", "static,ls,thumbnail,ls-1000", "lsPath", "/files/",
						"thumbnailPath", "/files/screenshot.png", "staticPath", "/", "levels", "1,5", "requests", "20");
				gatling(FilestashBenchmarkSimulation.class, common, paths, "filestash-benchmark");
				assertEveryThumbnailWasMade();
				gatling(FilestashLoadTestSimulation.class, common, Map.of("parts", "ls-memory", "scale", "0.0002"),
						"filestash-loadtest");
			}
			case "buildcache" -> gatling(RbcsSimulation.class, common,
					Map.of("sizes", "128,64K", "connections", "2,10", "entries", "40"), "rbcs");
			case "ftp" -> ftp(common);
			// One server, no balancer and nothing killed: the levels of run.sh replicas
			// against what they need.
			case "replicas" ->
				gatling(ReplicasSimulation.class, common, Map.of("concurrency", "5", "requests", "60"), "replicas");
			default -> throw new IllegalArgumentException(smoke);
		}
	}

	private static void gatling(Class<? extends Simulation> simulation, Map<String, String> common,
			Map<String, String> specific, String table) {
		Map<String, String> properties = new HashMap<>(common);
		properties.putAll(specific);
		withProperties(properties, () -> {
			int status = Gatling$.MODULE$
				.fromArgs(new String[] { "-s", simulation.getName(), "-rf", dir.resolve("gatling").toString(), "-nr" });
			assertThat(status)
				.as("Gatling's exit status for %s (the log: %s)", simulation.getSimpleName(), dir.resolve("wharf.log"))
				.isZero();
		});
		assertAllAnswered(table);
	}

	private static void ftp(Map<String, String> common) {
		Map<String, String> properties = new HashMap<>(common);
		properties.putAll(Map.of("port", Integer.toString(server.ftpPort), "clients", "4", "rounds", "3", "size", "64K",
				"seconds", "30"));
		withProperties(properties, () -> {
			try {
				assertThat(FtpLoadDriver.soak()).as("failed FTP operations").isZero();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		});
		assertAllAnswered("ftp");
	}

	private static void assertAllAnswered(String table) {
		assertThat(Files.exists(results)).as("results were written").isTrue();
		List<LevelResult> levels = LevelResult.read(results).stream().filter((r) -> r.table().equals(table)).toList();
		assertThat(levels).as("levels of %s", table).isNotEmpty().allSatisfy((level) -> {
			assertThat(level.failed()).as("failed requests in %s", level).isZero();
			assertThat(level.ok()).as("answered requests in %s", level).isPositive();
		});
	}

	/**
	 * The thumbnail column measures making thumbnails, as Filestash does on every
	 * request: each answered request made one (wharf-bench.yaml turns the caches off),
	 * none came from memory or from the mount.
	 */
	private static void assertEveryThumbnailWasMade() throws Exception {
		long answered = LevelResult.read(results)
			.stream()
			.filter((r) -> r.table().equals("filestash-benchmark") && r.part().equals("thumbnail"))
			.mapToLong(LevelResult::ok)
			.sum();
		assertThat(answered).isPositive();
		assertThat(server.metric("wharf_filemanager_thumbnails_total{source=\"made\"}"))
			.isGreaterThanOrEqualTo(answered);
		assertThat(server.metric("wharf_filemanager_thumbnails_total{source=\"memory\"}")).isZero();
		assertThat(server.metric("wharf_filemanager_thumbnails_total{source=\"mount\"}")).isZero();
		assertThat(dir.resolve("files").resolve(".wharf").resolve("thumbnails")).doesNotExist();
	}

	private static void withProperties(Map<String, String> properties, Runnable run) {
		Map<String, String> previous = new HashMap<>();
		properties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
		try {
			run.run();
		}
		finally {
			for (String key : Set.copyOf(properties.keySet())) {
				String old = previous.get(key);
				if (old == null) {
					System.clearProperty(key);
				}
				else {
					System.setProperty(key, old);
				}
			}
		}
	}

}
