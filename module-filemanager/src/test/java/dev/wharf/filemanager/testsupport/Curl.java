package dev.wharf.filemanager.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.testsupport.Requirements;
import dev.wharf.filemanager.testsupport.Api.Answer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real {@code curl} against the test server. The URL is handed over in a config file
 * ({@code -K}), so its bytes reach the wire exactly as given (curl sends non-ASCII bytes
 * unencoded, as several clients do), whatever the JVM's encoding of process arguments;
 * {@code --globoff} and {@code --path-as-is} keep curl from reading or normalising the
 * URL.
 */
public final class Curl {

	private static final long TIMEOUT_SECONDS = 60;

	private final Path executable;

	private final Path folder;

	private Curl(Path executable, Path folder) {
		this.executable = executable;
		this.folder = folder;
	}

	/**
	 * Finds curl, failing the test (under CI) if it is missing.
	 * @param folder where to keep the config and output files
	 * @return the client
	 */
	public static Curl require(Path folder) {
		return new Curl(Requirements.requireExecutable("curl", "curl"), folder);
	}

	/**
	 * Runs curl once.
	 * @param url the URL's bytes, sent as they are
	 * @param options further options, such as {@code -X POST} or {@code -u alice:secret}
	 * @return the answer
	 */
	public Answer send(byte[] url, String... options) throws IOException, InterruptedException {
		Path config = Files.createTempFile(this.folder, "curl", ".cfg");
		Path headers = Files.createTempFile(this.folder, "curl", ".head");
		Path body = Files.createTempFile(this.folder, "curl", ".body");
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		line.writeBytes("url = \"".getBytes(StandardCharsets.US_ASCII));
		for (byte b : url) {
			if (b == '"' || b == '\\') {
				line.write('\\');
			}
			line.write(b);
		}
		line.writeBytes("\"\n".getBytes(StandardCharsets.US_ASCII));
		Files.write(config, line.toByteArray());
		List<String> command = new ArrayList<>(List.of(this.executable.toString(), "-sS", "--globoff", "--path-as-is",
				"-K", config.toString(), "-D", headers.toString(), "-o", body.toString()));
		command.addAll(List.of(options));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("curl finished").isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		String[] lines = Files.readString(headers, StandardCharsets.ISO_8859_1).split("\r\n");
		Map<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				map.merge(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim(),
						(a, b) -> a + ", " + b);
			}
		}
		return new Answer(Integer.parseInt(lines[0].split(" ")[1]), map, Files.readAllBytes(body));
	}

	/**
	 * Runs curl once against a URL of plain text.
	 * @param url the URL, sent as its UTF-8 bytes
	 * @param options further options
	 * @return the answer
	 */
	public Answer send(String url, String... options) throws IOException, InterruptedException {
		return send(url.getBytes(StandardCharsets.UTF_8), options);
	}

}
