package dev.wharf.app.helm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every JVM profile's options start the JDK that runs the tests (CI runs them on 17 and
 * 25): the profiles hold diagnostic options, which a JDK may rename or drop, and the
 * chart and {@code bin/wharf} pass them unchanged.
 */
class JvmProfileOptionsTests {

	@ParameterizedTest
	@ValueSource(strings = { "p96", "p128", "p512" })
	void theJdkStartsWithTheProfileAndMapsItsClassDataWhereItWasMade(String profile)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JvmProfileFiles.options(profile));
		command.addAll(List.of("-Xshare:auto", "-Xlog:cds=info", "-version"));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		for (String variable : JvmProfileFiles.environment(profile)) {
			String[] pair = variable.split("=", 2);
			builder.environment().put(pair[0], pair[1]);
		}
		Process java = builder.start();
		String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(java.exitValue()).as(output).isZero();
		assertThat(output).contains("version");
		// With the JDK's default (mode 1) every archive page would be rewritten at
		// start-up and stop being shared.
		assertThat(output).doesNotContain("always map archive(s) at an alternative address");
	}

}
