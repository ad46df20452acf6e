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
 * The small profiles load no classes for features Wharf does not use: each class stays in
 * metaspace and the symbol table for the life of the process, and in 96 or 128 MB those
 * megabytes count. A JVM with the profile's options runs
 * {@code dev.wharf.app.ClassLoadProbe} (logging as {@code main} sets it up, one buffer
 * from Netty's default allocator, the {@code s3} backend's provider made as Spring makes
 * it) and its class-loading log must show neither the Log4j API (Commons Logging's detour
 * to SLF4J), nor Netty's Flight Recorder events, nor the AWS SDK beyond the interfaces
 * Spring's class conditions look up.
 */
class SmallProfileClassLoadingTests {

	@ParameterizedTest
	@ValueSource(strings = { "p96", "p128" })
	void loggingNettyBuffersAndTheS3ProviderLoadNoClassesForFeaturesNotInUse(String profile)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JvmProfileFiles.options(profile));
		command.addAll(List.of("-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
				"dev.wharf.app.ClassLoadProbe"));
		Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(java.exitValue()).as(output).isZero();
		// The probe did log through SLF4J, allocate from Netty's pool and make the
		// provider.
		assertThat(output).contains("probe done", "probe made a provider of s3",
				" org.apache.commons.logging.impl.Slf4jLogFactory ", " io.netty.buffer.AdaptivePoolingAllocator ");
		assertThat(output).doesNotContain(" org.apache.logging.log4j.", " io.netty.buffer.AbstractAllocatorEvent ",
				" io.netty.buffer.AllocateBufferEvent ", " jdk.jfr.internal.MetadataRepository ",
				" software.amazon.awssdk.regions.", " software.amazon.awssdk.auth.",
				" software.amazon.awssdk.http.crt.");
	}

}
