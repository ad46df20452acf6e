package dev.wharf.app.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest of every value set against the Kubernetes JSON schemas, strictly (an
 * unknown or misspelled field fails), for the oldest Kubernetes the chart supports and
 * the newest the validator knows.
 */
class WharfChartKubernetesSchemaTests {

	@TempDir
	Path workDir;

	@ParameterizedTest
	@ValueSource(strings = { WharfChart.KUBE_VERSION, "1.37.0" })
	void everyManifestIsValid(String kubernetesVersion) throws Exception {
		List<Path> files = new ArrayList<>();
		long resources = 0;
		for (ValueSet valueSet : ValueSet.values()) {
			RenderedChart chart = WharfChart.render(valueSet);
			Path file = this.workDir.resolve(valueSet.name() + ".yaml");
			Files.writeString(file, chart.yaml());
			files.add(file);
			// Custom resources have no schema in Kubernetes: the validator only warns
			// about them.
			resources += chart.manifests().size() - chart.ofKind("ServiceMonitor").size();
		}
		KubernetesValidate.Result result = KubernetesValidate.validate(kubernetesVersion, files);
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output()).doesNotContain("ERROR");
		assertThat(result.passed()).as(result.output()).isEqualTo(resources);
	}

	@Test
	void theValidatorRejectsAMisspelledField() throws IOException, InterruptedException {
		String deployment = WharfChart.render(ValueSet.DEFAULTS).yaml().replace("readinessProbe:", "readinesProbe:");
		Path file = this.workDir.resolve("broken.yaml");
		Files.writeString(file, deployment);
		KubernetesValidate.Result result = KubernetesValidate.validate(WharfChart.KUBE_VERSION, List.of(file));
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains("readinesProbe");
	}

}
