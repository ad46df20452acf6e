package dev.wharf.app.helm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.Requirements;

/**
 * The {@code kubernetes-validate} command (PyPI), which checks manifests against the JSON
 * schemas of a Kubernetes version that it bundles, so it works offline. {@code .ci/run}
 * installs it; elsewhere tests that need it are skipped with a message saying how to
 * install it.
 */
final class KubernetesValidate {

	private KubernetesValidate() {
	}

	/**
	 * What one run printed and how it ended.
	 *
	 * @param exitCode 0 when every manifest passed
	 * @param output standard output and error together
	 */
	record Result(int exitCode, String output) {

		/** The lines saying a resource passed. */
		long passed() {
			return this.output.lines().filter((line) -> line.contains(" passed for resource ")).count();
		}

	}

	/**
	 * Validates files of manifests strictly (unknown fields are errors).
	 * @param kubernetesVersion such as 1.30.0
	 * @param files YAML files, each with one or more manifests
	 */
	static Result validate(String kubernetesVersion, List<Path> files) throws IOException, InterruptedException {
		Path executable = Requirements.findExecutable("kubernetes-validate").orElse(null);
		Requirements.require(executable != null,
				"kubernetes-validate (python3 -m pip install kubernetes-validate==1.37.0, as .ci/run does)");
		List<String> command = new ArrayList<>(
				List.of(String.valueOf(executable), "--kubernetes-version", kubernetesVersion, "--strict"));
		files.forEach((file) -> command.add(file.toString()));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(120, TimeUnit.SECONDS)) {
				throw new AssertionError("kubernetes-validate did not finish in 120 s: " + output);
			}
			return new Result(process.exitValue(), output);
		}
		finally {
			process.destroyForcibly();
		}
	}

}
