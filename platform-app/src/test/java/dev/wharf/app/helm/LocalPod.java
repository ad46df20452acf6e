package dev.wharf.app.helm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.wharf.core.testsupport.Processes;
import tools.jackson.databind.JsonNode;

/**
 * Wharf's container of a rendered chart, run the way the kubelet would run it but without
 * Kubernetes: the Dockerfile's entry point on the packaged jar, the container's
 * environment, its ConfigMap, Secret and emptyDir volumes as folders under a root (every
 * container path in the configuration and environment mapped to its folder), and its
 * probes asked over HTTP. It listens on 127.0.0.1 instead of every interface.
 */
final class LocalPod implements AutoCloseable {

	private static final Path JAR = Path.of("target/wharf.jar").toAbsolutePath();

	private final RenderedChart chart;

	private final Map<String, Path> volumes = new HashMap<>();

	private final Pattern containerPaths;

	private final Path log;

	private final Process process;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private LocalPod(RenderedChart chart, Path root) throws IOException {
		this.chart = chart;
		JsonNode container = chart.container();
		Map<String, String> mountPaths = new HashMap<>();
		container.path("volumeMounts")
			.forEach((mount) -> mountPaths.put(mount.path("name").asString(), mount.path("mountPath").asString()));
		for (JsonNode volume : chart.deployment().at("/spec/template/spec/volumes")) {
			String name = volume.path("name").asString();
			Path folder = Files.createDirectories(root.resolve("volumes").resolve(name));
			this.volumes.put(mountPaths.get(name), folder);
			if (volume.has("configMap")) {
				writeFiles(folder, chart.get("ConfigMap", volume.at("/configMap/name").asString()).path("data"), false);
			}
			else if (volume.has("secret")) {
				writeFiles(folder, chart.get("Secret", volume.at("/secret/secretName").asString()).path("data"), true);
			}
		}
		// One pass, so a folder put in place of one path is never mistaken for another
		// path.
		this.containerPaths = Pattern.compile(
				"(?<![\\w/.-])(" + this.volumes.keySet().stream().map(Pattern::quote).collect(Collectors.joining("|"))
						+ ")(?=/|$|[\\s\",])");
		Path config = this.volumes.get("/etc/wharf/config").resolve("application.yaml");
		Files.writeString(config, rewrite(Files.readString(config)).replace("0.0.0.0", "127.0.0.1"));

		List<String> command = new ArrayList<>(entryPoint());
		command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.volumes.get("/var/lib/wharf").toFile());
		for (JsonNode variable : container.path("env")) {
			builder.environment().put(variable.path("name").asString(), rewrite(variable.path("value").asString()));
		}
		this.log = root.resolve("wharf.log");
		this.process = builder.redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
	}

	/**
	 * Starts Wharf's container of a rendered chart.
	 * @param chart the chart, rendered with free ports for {@code server.port} and
	 * {@code management.port}
	 * @param root an empty folder for the volumes and the log
	 */
	static LocalPod start(RenderedChart chart, Path root) throws IOException {
		return new LocalPod(chart, root);
	}

	/**
	 * The ENTRYPOINT of helm/Dockerfile with the image's jar replaced by the packaged
	 * one.
	 */
	private static List<String> entryPoint() throws IOException {
		String dockerfile = Files.readString(WharfChart.DIRECTORY.resolveSibling("Dockerfile"));
		Matcher entryPoint = Pattern.compile("(?m)^ENTRYPOINT \\[(.*)\\]$").matcher(dockerfile);
		if (!entryPoint.find()) {
			throw new IllegalStateException("helm/Dockerfile has no ENTRYPOINT [...]");
		}
		List<String> command = new ArrayList<>();
		Matcher word = Pattern.compile("\"([^\"]*)\"").matcher(entryPoint.group(1));
		while (word.find()) {
			command.add(word.group(1).equals("/opt/wharf/wharf.jar") ? JAR.toString() : word.group(1));
		}
		return command;
	}

	private static void writeFiles(Path folder, JsonNode data, boolean base64) throws IOException {
		for (Map.Entry<String, JsonNode> file : data.properties()) {
			byte[] content = base64 ? Base64.getDecoder().decode(file.getValue().asString())
					: file.getValue().asString().getBytes(StandardCharsets.UTF_8);
			Files.write(folder.resolve(file.getKey()), content);
		}
	}

	/** Text with every container path of a volume replaced by that volume's folder. */
	private String rewrite(String text) {
		return this.containerPaths.matcher(text)
			.replaceAll((match) -> Matcher.quoteReplacement(this.volumes.get(match.group(1)).toString()));
	}

	/** The folder standing for a path in the container. */
	Path hostPath(String containerPath) {
		return Path.of(rewrite(containerPath));
	}

	/**
	 * Waits, as the kubelet does, for the startup probe to succeed within its period
	 * times its failure threshold.
	 */
	void awaitStarted(Duration atLeast) throws InterruptedException {
		JsonNode startup = this.chart.container().path("startupProbe");
		long budget = Math.max(atLeast.toSeconds(),
				startup.path("periodSeconds").asLong() * startup.path("failureThreshold").asLong());
		if (Processes.awaitReady(this.process, Duration.ofSeconds(budget), Duration.ofMillis(250),
				() -> probe("startupProbe") == 200)) {
			return;
		}
		if (!this.process.isAlive()) {
			throw new AssertionError("Wharf exited with " + this.process.exitValue() + ":\n" + log());
		}
		throw new AssertionError("The startup probe did not succeed in " + budget + " s:\n" + log());
	}

	/**
	 * Asks one of the container's HTTP probes.
	 * @param name startupProbe, livenessProbe or readinessProbe
	 * @return the HTTP status, or 0 if nothing answered
	 */
	int probe(String name) throws InterruptedException {
		JsonNode httpGet = this.chart.container().path(name).path("httpGet");
		String scheme = httpGet.path("scheme").asString("HTTP").toLowerCase(Locale.ROOT);
		return status(
				scheme + "://127.0.0.1:" + port(httpGet.path("port").asString()) + httpGet.path("path").asString());
	}

	/** The container port of a name. */
	int port(String name) {
		for (JsonNode port : this.chart.container().path("ports")) {
			if (name.equals(port.path("name").asString())) {
				return port.path("containerPort").asInt();
			}
		}
		throw new AssertionError("No container port " + name);
	}

	private int status(String url) throws InterruptedException {
		try {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build();
			return this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException notListening) {
			return 0;
		}
	}

	/** What Wharf printed so far. */
	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	/**
	 * Sends SIGTERM, as the kubelet does after the preStop hook, and waits the pod's
	 * grace period.
	 * @return whether Wharf exited within it
	 */
	boolean stop() throws InterruptedException {
		this.process.destroy();
		long grace = this.chart.deployment().at("/spec/template/spec/terminationGracePeriodSeconds").asLong();
		return this.process.waitFor(grace, TimeUnit.SECONDS);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive() && !stop()) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
