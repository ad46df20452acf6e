package dev.wharf.core.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Apache Bench ({@code ab}, from apache2-utils) with keep-alive, the client that speaks
 * HTTP/1.0 keep-alive and found Reactor Netty's keep-alive stalls: a test runs it against
 * its own server and checks the summary. Requires {@code ab} through
 * {@link Requirements}.
 */
public final class ApacheBench {

	private ApacheBench() {
	}

	/**
	 * Runs {@code ab -k -c concurrency -n requests -s 20 url} and waits for it (two
	 * minutes at most).
	 * @param url the URL, on 127.0.0.1
	 * @param concurrency connections
	 * @param requests requests in all
	 * @return ab's output, after checking that it exited with 0 and that every request
	 * completed without a failure on a kept-alive connection
	 */
	public static String keepAlive(String url, int concurrency, int requests) throws IOException, InterruptedException {
		Path ab = Requirements.requireExecutable("ab", "apache2-utils");
		Process process = new ProcessBuilder(ab.toString(), "-k", "-c", Integer.toString(concurrency), "-n",
				Integer.toString(requests), "-s", "20", url)
			.redirectErrorStream(true)
			.start();
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("ab finished").isTrue();
			assertThat(process.exitValue()).as(output).isZero();
			assertThat(output).contains("Complete requests:      " + requests)
				.contains("Failed requests:        0")
				.contains("Keep-Alive requests:    " + requests);
			return output;
		}
		finally {
			process.destroyForcibly();
		}
	}

}
