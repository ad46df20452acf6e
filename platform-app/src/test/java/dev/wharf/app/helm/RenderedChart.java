package dev.wharf.app.helm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests of one {@code helm template} run, parsed, with look-ups for what the
 * tests check.
 *
 * @param yaml helm's output as it is
 * @param manifests every document of it
 */
record RenderedChart(String yaml, List<JsonNode> manifests) {

	RenderedChart(String yaml) {
		this(yaml, parse(yaml));
	}

	private static List<JsonNode> parse(String yaml) {
		List<JsonNode> manifests = new ArrayList<>();
		WharfChart.YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml).forEachRemaining((manifest) -> {
			if (manifest != null && !manifest.isNull() && !manifest.isMissingNode()) {
				manifests.add(manifest);
			}
		});
		return List.copyOf(manifests);
	}

	/** The manifests of a kind. */
	List<JsonNode> ofKind(String kind) {
		return this.manifests.stream().filter((manifest) -> kind.equals(manifest.path("kind").asString())).toList();
	}

	/** The manifest of a kind and name, if rendered. */
	Optional<JsonNode> find(String kind, String name) {
		return ofKind(kind).stream()
			.filter((manifest) -> name.equals(manifest.at("/metadata/name").asString()))
			.findFirst();
	}

	/** The manifest of a kind and name, which must be rendered. */
	JsonNode get(String kind, String name) {
		return find(kind, name).orElseThrow(() -> new AssertionError("No " + kind + " " + name + " in: "
				+ this.manifests.stream()
					.map((m) -> m.path("kind").asString() + "/" + m.at("/metadata/name").asString())
					.collect(Collectors.joining(", "))));
	}

	/** Wharf's Deployment. */
	JsonNode deployment() {
		return get("Deployment", WharfChart.RELEASE);
	}

	/** Wharf's container. */
	JsonNode container() {
		JsonNode containers = deployment().at("/spec/template/spec/containers");
		assertThat(containers.size()).isEqualTo(1);
		return containers.get(0);
	}

	/** The value of one environment variable of Wharf's container. */
	String env(String name) {
		for (JsonNode variable : container().path("env")) {
			if (name.equals(variable.path("name").asString())) {
				return variable.path("value").asString();
			}
		}
		throw new AssertionError("No environment variable " + name + " in " + container().path("env"));
	}

	/** The application.yaml of the ConfigMap, parsed. */
	JsonNode applicationConfig() {
		return WharfChart.YAML.readTree(get("ConfigMap", WharfChart.RELEASE).at("/data/application.yaml").asString());
	}

	/** A file of a Secret, decoded. */
	String secretFile(String secret, String key) {
		return new String(Base64.getDecoder().decode(get("Secret", secret).at("/data/" + key).asString()),
				StandardCharsets.UTF_8);
	}

	/** A pod-template annotation of Wharf's Deployment, or null. */
	@Nullable String podAnnotation(String name) {
		JsonNode annotation = deployment().at("/spec/template/metadata/annotations").get(name);
		return (annotation != null) ? annotation.asString() : null;
	}

}
