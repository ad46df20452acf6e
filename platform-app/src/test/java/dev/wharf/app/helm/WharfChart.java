package dev.wharf.app.helm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The chart in {@code helm/wharf}, driven through helm itself (helm-java: helm's Go code
 * as a native library from Maven Central, so the build needs no helm binary). Renders,
 * lints and dry-run installs it offline. Not thread-safe: tests use it one at a time.
 */
final class WharfChart {

	/** The chart, seen from platform-app (Surefire runs in the module's folder). */
	static final Path DIRECTORY = Path.of("../helm/wharf").toAbsolutePath().normalize();

	/**
	 * The oldest Kubernetes the chart supports (Chart.yaml kubeVersion), so nothing newer
	 * sneaks in.
	 */
	static final String KUBE_VERSION = "1.30.0";

	static final String RELEASE = "wharf";

	static final String NAMESPACE = "files";

	static final YAMLMapper YAML = new YAMLMapper();

	private WharfChart() {
	}

	/**
	 * {@code helm template} with a value set and more values on top, as YAML texts.
	 * @throws IllegalStateException with helm's message when the chart refuses the values
	 */
	static RenderedChart render(ValueSet valueSet, String... moreValues) {
		return withValueFiles(valueSet, moreValues, (files) -> {
			TemplateCommand template = new Helm(DIRECTORY).template()
				.withName(RELEASE)
				.withNamespace(NAMESPACE)
				.withKubeVersion(KUBE_VERSION);
			for (Path file : files) {
				template = template.withValuesFile(file);
			}
			return new RenderedChart(template.call());
		});
	}

	/**
	 * The NOTES.txt helm prints after an install, from a client-only dry run (no cluster
	 * needed).
	 */
	static String notes(ValueSet valueSet, String... moreValues) {
		return withValueFiles(valueSet, moreValues, (files) -> {
			InstallCommand install = new Helm(DIRECTORY).install()
				.withName(RELEASE)
				.withNamespace(NAMESPACE)
				.withKubeVersion(KUBE_VERSION)
				.clientOnly()
				.dryRun();
			for (Path file : files) {
				install = install.withValuesFile(file);
			}
			String output = install.call().getOutput();
			return output.substring(output.indexOf("NOTES:"));
		});
	}

	/**
	 * {@code helm lint --strict -f <value set>}. helm-java's lint takes no values files,
	 * so the chart is copied with the value set merged into its values.yaml the way helm
	 * merges a {@code -f} file (maps merge, null removes a key, anything else replaces).
	 */
	static LintResult lint(ValueSet valueSet) throws IOException {
		Path copy = Files.createTempDirectory("wharf-chart-");
		try {
			copyTree(DIRECTORY, copy);
			ObjectNode values = (ObjectNode) YAML.readTree(DIRECTORY.resolve("values.yaml").toFile());
			for (Path file : valueSet.files()) {
				merge(values, (ObjectNode) YAML.readTree(file.toFile()));
			}
			YAML.writeValue(copy.resolve("values.yaml").toFile(), values);
			return new Helm(copy).lint().strict().call();
		}
		finally {
			deleteTree(copy);
		}
	}

	private static void merge(ObjectNode target, ObjectNode source) {
		for (Map.Entry<String, JsonNode> entry : source.properties()) {
			JsonNode existing = target.get(entry.getKey());
			if (entry.getValue().isNull()) {
				target.remove(entry.getKey());
			}
			else if (existing instanceof ObjectNode existingObject
					&& entry.getValue() instanceof ObjectNode sourceObject) {
				merge(existingObject, sourceObject);
			}
			else {
				target.set(entry.getKey(), entry.getValue());
			}
		}
	}

	private interface HelmCall<T> {

		T call(List<Path> valueFiles) throws IOException;

	}

	private static <T> T withValueFiles(ValueSet valueSet, String[] moreValues, HelmCall<T> call) {
		List<Path> files = new ArrayList<>(valueSet.files());
		List<Path> temporary = new ArrayList<>();
		try {
			for (String values : moreValues) {
				Path file = Files.createTempFile("wharf-values-", ".yaml");
				temporary.add(file);
				Files.writeString(file, values);
				files.add(file);
			}
			return call.call(files);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			temporary.forEach((file) -> file.toFile().delete());
		}
	}

	private static void copyTree(Path from, Path to) throws IOException {
		try (Stream<Path> paths = Files.walk(from)) {
			for (Iterator<Path> it = paths.iterator(); it.hasNext();) {
				Path source = it.next();
				Path target = to.resolve(from.relativize(source).toString());
				if (Files.isDirectory(source)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(source, target);
				}
			}
		}
	}

	private static void deleteTree(Path root) throws IOException {
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach((path) -> path.toFile().delete());
		}
	}

}
