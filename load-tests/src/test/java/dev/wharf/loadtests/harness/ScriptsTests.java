package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's shell and Python scripts, as far as they can be checked without running a
 * table: they parse ({@code bash -n}, Python's own parser), {@code run.sh} refuses bad
 * arguments before it builds or starts anything, every placeholder of a peer's
 * configuration is one {@code run.sh} fills in, and the Filestash build refuses folders
 * that are not the clones it needs. Needs bash and python3 (the harness does); a missing
 * one fails.
 */
class ScriptsTests {

	private static final Path MODULE = Path.of("").toAbsolutePath();

	@ParameterizedTest
	@ValueSource(strings = { "run.sh", "buildcache-vs-nginx.sh", "watchdog.sh", "peers/filestash-build.sh",
			"peers/proftpd-unpack.sh" })
	void shellScriptsParse(String script) throws Exception {
		Result result = run(List.of("bash", "-n", MODULE.resolve(script).toString()));
		assertThat(result.status()).as("bash -n %s: %s", script, result.output()).isZero();
		assertThat(Files.isExecutable(MODULE.resolve(script))).as("%s is executable", script).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "peers/pyftpdlib_server.py", "peers/twisted_ftp_server.py" })
	void pythonPeersParse(String script) throws Exception {
		Result result = run(
				List.of("python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])",
						MODULE.resolve(script).toString()));
		assertThat(result.status()).as("%s: %s", script, result.output()).isZero();
	}

	@Test
	void runShowsEveryTableAndItsOptions() throws Exception {
		Result help = run(List.of("bash", MODULE.resolve("run.sh").toString(), "--help"));
		assertThat(help.status()).isZero();
		assertThat(help.output())
			.contains("filestash-benchmark", "filestash-loadtest", "rbcs", "socko", "pyftpdlib", "profiles", "plots",
					"--runs N", "--keepalive MODE", "--filestash FILE", "proftpd", "Twisted", "--modules M[,M…]",
					"--hold SECONDS", "--nmt", "--unresponsive S")
			.doesNotContain("ftp-soak");
	}

	@Test
	void buildcacheVsNginxShowsItsOptions() throws Exception {
		Result help = run(List.of("bash", MODULE.resolve("buildcache-vs-nginx.sh").toString(), "--help"));
		assertThat(help.status()).isZero();
		assertThat(help.output()).contains("--backend B", "--connections C", "--no-nginx", "--commit C",
				"/proc/<pid>/stat");
	}

	@ParameterizedTest
	@ValueSource(strings = { "--backend s3", "--bogus" })
	void buildcacheVsNginxRefusesBadArgumentsBeforeItStartsAnything(String arguments) throws Exception {
		List<String> command = new ArrayList<>(List.of("bash", MODULE.resolve("buildcache-vs-nginx.sh").toString()));
		command.addAll(List.of(arguments.split(" ")));
		Result result = run(command);
		assertThat(result.status()).as(result.output()).isEqualTo(2);
		assertThat(result.output()).doesNotContain("== ");
	}

	@ParameterizedTest
	@ValueSource(strings = { "ftp-soak", "socko --runs 0", "socko --keepalive sometimes", "socko --warmup x",
			"socko --bogus", "filestash-benchmark --modules filemanager,gopher", "filestash-benchmark --hold 1m",
			"socko --unresponsive 2m" })
	void runRefusesBadArgumentsBeforeItStartsAnything(String arguments) throws Exception {
		List<String> command = new ArrayList<>(List.of("bash", MODULE.resolve("run.sh").toString()));
		command.addAll(List.of(arguments.split(" ")));
		Result result = run(command);
		assertThat(result.status()).as(result.output()).isEqualTo(2);
		assertThat(result.output()).doesNotContain("== run folder");
	}

	@ParameterizedTest
	@ValueSource(strings = { "nginx.conf", "vsftpd.conf", "proftpd.conf", "sshd_config" })
	void everyPlaceholderOfAPeersConfigurationIsFilledIn(String file) throws IOException {
		String script = Files.readString(MODULE.resolve("run.sh"), StandardCharsets.UTF_8);
		Matcher placeholders = Pattern.compile("@[A-Z_]+@")
			.matcher(Files.readString(MODULE.resolve("peers").resolve(file), StandardCharsets.UTF_8));
		List<String> found = new ArrayList<>();
		while (placeholders.find()) {
			found.add(placeholders.group());
		}
		assertThat(found).as("placeholders of %s", file).isNotEmpty();
		assertThat(found).allSatisfy((p) -> assertThat(script).as("run.sh fills in %s", p).contains("s|" + p + "|"));
		assertThat(script).contains("load-tests/peers/" + file);
	}

	@Test
	void filestashBuildRefusesFoldersThatAreNotTheClonesItNeeds(@TempDir Path empty) throws Exception {
		Result result = run(List.of("bash", MODULE.resolve("peers/filestash-build.sh").toString(), empty.toString(),
				empty.toString()));
		assertThat(result.status()).isEqualTo(1);
		assertThat(result.output()).contains("is not a clone of Filestash");
		assertThat(empty).isEmptyDirectory();
	}

	private record Result(int status, String output) {
	}

	private static Result run(List<String> command) throws IOException, InterruptedException {
		Process process;
		try {
			process = new ProcessBuilder(command).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			throw new AssertionError(command.get(0) + " is needed for this test (the harness runs it)", ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
		return new Result(process.exitValue(), output);
	}

}
