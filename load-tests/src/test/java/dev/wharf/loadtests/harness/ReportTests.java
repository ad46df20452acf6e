package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.wharf.loadtests.LevelResult;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTests {

	@TempDir
	Path run;

	@Test
	void filestashGridHasTheOriginalsShapeWithFilestashFromTheSameRunAndFailures() throws IOException {
		meta("filestash-benchmark");
		targets(String.join("\n", "wharf-p128\tp128\t128M\t2\t0-1\t0-1\t4.5\t120000\t110000\t-Xmx40m\t0",
				"filestash-p128\t-\t128M\t2\t0-1\t0-1\t\t30000\t28000\tFilestash ce30865\t0"));
		LevelResult.append(this.run.resolve("results.tsv"), List.of(
				new LevelResult("filestash-benchmark", "wharf-p128", "static", 1, 1000, 1000, 0, 0, 100, 1, 2, 3),
				new LevelResult("filestash-benchmark", "wharf-p128", "ls", 1, 1000, 990, 10, 0, 1000, 1, 2, 3),
				new LevelResult("filestash-benchmark", "wharf-p128", "thumbnail", 1, 1000, 0, 1000, 0, 1000, 1, 2, 3),
				new LevelResult("filestash-benchmark", "filestash-p128", "static", 1, 1000, 1000, 0, 0, 200, 1, 2, 3)));
		String markdown = new Report(new RunData(this.run, "")).render("filestash-benchmark");
		assertThat(markdown).contains("## wharf-p128 and filestash-p128 (compare: 128MB of RAM on 2 cores)")
			.contains("| Level of concurrency | Static file: Wharf | Filestash (this run) | Filestash (2019) | "
					+ "List files: Wharf | Filestash (this run) | Filestash (2019) | Transcode image: Wharf |")
			.contains("| 1 | 10000 req/s (×2.00) | 5000 req/s | 3101 req/s | 990 req/s (10 failed) | not run | "
					+ "1322 req/s | failed | not run | 290 req/s |")
			.contains("`load-tests/run.sh filestash-benchmark`");
		assertThat(markdown.split("\n")).as("a section per Wharf profile, its Filestash inside it")
			.filteredOn((line) -> line.startsWith("## filestash"))
			.isEmpty();
	}

	@Test
	void everyLevelShowsMediansRangesAndCpuPerRequestOfServerAndLoadGenerator() throws IOException {
		meta("filestash-loadtest");
		targets(String.join("\n", "wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.5\t120000\t110000\t-Xmx256m\t0",
				"filestash-p512\t-\t512M\t4\t0-1\t0-1\t\t30000\t28000\tFilestash ce30865\t0"));
		// Three alternating runs: 100,000 requests each; Wharf's server CPU 40, 50 and 60
		// µs a request.
		List<LevelResult> levels = new ArrayList<>();
		long[][] wharf = { { 10_000, 5_000_000, 9_000_000 }, { 8_000, 4_000_000, 8_000_000 },
				{ 12_500, 6_000_000, 10_000_000 } };
		for (int i = 0; i < 3; i++) {
			levels.add(new LevelResult("filestash-loadtest", "wharf-p512", "ls-memory", 100, 100_000, 100_000, 0, 0,
					wharf[i][0], 1_000, 2_000, 3_000, wharf[i][1], wharf[i][2]));
			levels.add(new LevelResult("filestash-loadtest", "filestash-p512", "ls-memory", 100, 100_000, 100_000, 0, 0,
					20_000 + i * 1_000, 1_000, 2_000, 3_000, 20_000_000, -1));
		}
		LevelResult.append(this.run.resolve("results.tsv"), levels);
		String markdown = new Report(new RunData(this.run, "")).render("filestash-loadtest");
		assertThat(markdown).contains("| Runs | 3 per server, each started afresh, alternating with its peers")
			.contains("| ls-memory | `ab -k -c 100 -n 100000 /api/files/ls?path=%2F…` | 100,000 | 0 | "
					+ "10000 req/s [8000–12500] | 10.000 ms | 1.0 ms | 3.0 ms | – | 4762 req/s [4545–5000] | ×2.10 | "
					+ "40788 | ×0.25 |")
			.contains("| server | part | concurrency | requests | failed (all runs) | req/s | 50% | 99% | "
					+ "server CPU per request | load generator CPU per request | peak RSS |")
			.contains("| wharf-p512 | ls-memory | 100 | 100,000 | 0 | 10000 req/s [8000–12500] | 1.0 ms | 3.0 ms | "
					+ "50 µs [40–60] | 90 µs [80–100] | – |")
			.contains("| filestash-p512 | ls-memory | 100 | 100,000 | 0 | 4762 req/s [4545–5000] | 1.0 ms | 3.0 ms | "
					+ "200 µs [200–200] | – | – |");
	}

	@Test
	void cpuRangesAreInTheirMediansUnit() {
		LevelRuns level = new LevelRuns(
				List.of(new LevelResult("t", "wharf", "p", 1, 1000, 1000, 0, 0, 1000, 1, 2, 3, 1_140_000, 5_000),
						new LevelResult("t", "wharf", "p", 1, 1000, 1000, 0, 0, 1000, 1, 2, 3, 1_550_000, 6_000)));
		assertThat(level.serverCpu()).isEqualTo("1.6 ms [1.1–1.6]");
		assertThat(level.loadgenCpu()).isEqualTo("6.0 µs [5.0–6.0]");
	}

	@Test
	void resultsWrittenBeforeCpuWasMeasuredStillRead() throws IOException {
		meta("profiles");
		targets("wharf-p96\tp96\t96M\t1\t0\t1\t1.8\t137000\t0\t-Xmx40m\t0");
		Files.writeString(this.run.resolve("results.tsv"),
				LevelResult.HEADER.replace("\tserver_cpu_us\tloadgen_cpu_us", "")
						+ "\nactuator\twharf-p96\thealth\t10\t2000\t2000\t0\t0\t1000\t100\t200\t300\n",
				StandardCharsets.UTF_8);
		String markdown = new Report(new RunData(this.run, "")).render("profiles");
		assertThat(markdown)
			.contains("| wharf-p96 | health | 10 | 2,000 | 0 | 2000 req/s | 0.1 ms | 0.3 ms | – | – | – |")
			.doesNotContain("| Runs |");
	}

	@Test
	void ftpbenchMediansComeFromEveryRun() throws IOException {
		meta("pyftpdlib");
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t3\t1\t1\tflags\t0");
		for (int i = 1; i <= 3; i++) {
			Files.writeString(this.run.resolve("ftpbench-wharf-p512-" + i + ".txt"),
					String.join("\n", "(starting with 16785408 of memory being used)",
							"STOR (client -> server)                              " + (100 * i) + ".00 MB/sec  8.1M",
							"300 concurrent clients (connect, login)                  0.0" + i + " secs    8.2M"),
					StandardCharsets.UTF_8);
		}
		String markdown = new Report(new RunData(this.run, "")).render("pyftpdlib");
		assertThat(markdown).contains("| STOR (client -> server) | 200.00 MB/sec [100.00–300.00] | 585.90 MB/sec |")
			.contains("| 300 concurrent clients (connect, login) | 0.02 secs [0.01–0.03] | 0.19 secs |");
	}

	@Test
	void sockoWithSeveralRunsShowsEachServersMedianRunWithTheRange() throws IOException {
		meta("socko");
		String wharf = "wharf-p512\tp512\t512M\t4\t0-1\t0-1\t";
		String nginx = "nginx\t-\t512M\t4\t0-1\t0-1\t\t";
		targets(String.join("\n", wharf + "4.389\t250000\t260000\t-Xmx256m\t0", nginx + "36000\t17000\tnginx/1.22.1\t0",
				wharf + "3.912\t257308\t255000\t-Xmx256m\t0", nginx + "36884\t17416\tnginx/1.22.1\t0",
				wharf + "4.001\t240000\t268780\t-Xmx256m\t1", nginx + "35000\t16000\tnginx/1.22.1\t0"));
		// In the order they ran: Wharf's median run first, its last run the slowest;
		// nginx's median run last.
		LevelResult.append(this.run.resolve("results.tsv"),
				List.of(sockoLevel("wharf-p512", 499_997, 3, 0, 9000, 10_000),
						sockoLevel("nginx", 500_000, 0, 10_000, 8620, 5_000),
						sockoLevel("wharf-p512", 500_000, 0, 20_000, 8000, 9_000),
						sockoLevel("nginx", 500_000, 0, 30_000, 8197, 4_000),
						sockoLevel("wharf-p512", 499_999, 1, 40_000, 10_000, 12_000),
						sockoLevel("nginx", 500_000, 0, 50_000, 8333, 6_000)));
		String markdown = new Report(new RunData(this.run, "")).render("socko");
		assertThat(markdown).contains("The figures are medians of 3 alternating runs (Wharf, nginx, Wharf, …)")
			.contains(
					"| wharf-p512 (this run) | 9.000 seconds | 55555 req/s (3 failed) [50000–62500] | 4 | 10 ms | – |")
			.contains("| nginx (this run) | 8.333 seconds | 60002 req/s [58005–60998] | 0 | 6.0 ms | – |")
			.contains(
					"| wharf-p512 | p512 | 512M | 4 | 0-1 | 0-1 | 4.389, 3.912, 4.001 s | 251 MB | 262 MB | 1 | `-Xmx256m` |")
			.contains("| nginx | - | 512M | 4 | 0-1 | 0-1 | – | 36 MB | 17 MB | 0 | `nginx/1.22.1` |");
		assertThat(markdown.split("\n")).as("one row of the servers table for all its runs")
			.filteredOn((line) -> line.startsWith("| wharf-p512 | p512 |"))
			.hasSize(1);
	}

	@Test
	void sockoWithOneRunKeepsTheSingleRunFormat() throws IOException {
		meta("socko");
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.389\t257308\t268780\t-Xmx256m\t0");
		LevelResult.append(this.run.resolve("results.tsv"),
				List.of(sockoLevel("wharf-p512", 499_998, 2, 0, 10_000, 11_000)));
		String markdown = new Report(new RunData(this.run, "")).render("socko");
		assertThat(markdown)
			.contains("| wharf-p512 (this run) | 10.000 seconds | 50000 req/s (2 failed) | 2 | 11 ms | – |")
			.contains("| wharf-p512 | p512 | 512M | 4 | 0-1 | 0-1 | 4.389 s | 251 MB | 262 MB | 0 | `-Xmx256m` |")
			.doesNotContain("medians of")
			.doesNotContain("req/s [");
	}

	@Test
	void publishedResultsAndReportNameTheRepositorysFilesRelativeToIt(@TempDir Path repository, @TempDir Path docs)
			throws IOException {
		String archive = "platform-app/target/wharf-cds/jdk-17.0.15-p512/wharf.jsa";
		Files.writeString(
				this.run.resolve("meta.properties"), "table=socko\ncommand=load-tests/run.sh socko\nscale=1\n"
						+ "note=p96 left out (see " + repository.resolve("platform-app/src/main/jvm/README.md") + ")\n",
				StandardCharsets.UTF_8);
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.389\t257308\t268780\t-Xmx256m -XX:SharedArchiveFile="
				+ repository.resolve(archive) + " \t0");
		LevelResult.append(this.run.resolve("results.tsv"),
				List.of(sockoLevel("wharf-p512", 500_000, 0, 0, 10_000, 11_000)));
		Files.writeString(this.run.resolve("wharf-p512.log"), "not published", StandardCharsets.UTF_8);
		Path results = Files.createDirectories(docs.resolve("results"));
		Files.writeString(results.resolve("socko.rss-nginx.tsv"), "0 1000\n", StandardCharsets.UTF_8);
		Publication.publish("socko", this.run, docs, repository);
		assertThat(Files.readString(results.resolve("socko.targets.tsv"), StandardCharsets.UTF_8))
			.contains("\t-Xmx256m -XX:SharedArchiveFile=" + archive + " \t")
			.doesNotContain(repository.toString());
		assertThat(Files.readString(docs.resolve("socko.md"), StandardCharsets.UTF_8))
			.contains("| `-Xmx256m -XX:SharedArchiveFile=" + archive + "` |")
			.contains("> **p96 left out (see platform-app/src/main/jvm/README.md)**")
			.doesNotContain(repository.toString());
		assertThat(Files.readString(docs.resolve("README.md"), StandardCharsets.UTF_8))
			.contains("[socko.md](socko.md)");
		try (Stream<Path> published = Files.list(results)) {
			assertThat(published.map((file) -> file.getFileName().toString()))
				.containsExactlyInAnyOrder("socko.meta.properties", "socko.targets.tsv", "socko.results.tsv");
		}
	}

	@Test
	void sockoShowsBothConnectionModesEachInItsOwnTables() throws IOException {
		Files.writeString(this.run.resolve("meta.properties"),
				"table=socko\ncommand=load-tests/run.sh socko\nscale=1\n" + "keepalive=both\n", StandardCharsets.UTF_8);
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.389\t257308\t268780\t-Xmx256m\t0");
		LevelResult keepAlive = sockoLevel("wharf-p512", 500_000, 0, 0, 10_000, 11_000);
		LevelResult without = new LevelResult("socko", "wharf-p512", "87 B without keep-alive", 100, 500_000, 500_000,
				0, 20_000, 45_000, 1_000, 2_000, 30_000, 25_000_000, 50_000_000);
		LevelResult.append(this.run.resolve("results.tsv"), List.of(keepAlive, without));
		String markdown = new Report(new RunData(this.run, "")).render("socko");
		assertThat(markdown)
			.contains("## Test #1 - 87 B static file, 100 concurrent users, 500,000 requests, keep-alive (`ab -k`)")
			.contains(
					"## Test #1 - 87 B static file, 100 concurrent users, 500,000 requests, without keep-alive (Socko's ab)")
			.contains("| wharf-p512 (this run) | 10.000 seconds | 50000 req/s | 0 | 11 ms | – |")
			.contains("| wharf-p512 (this run) | 25.000 seconds | 20000 req/s | 0 | 30 ms | 50 µs |")
			.doesNotContain("Test #2");
	}

	@Test
	void pyftpdlibGivesEachServersCpuPerFtpbenchRun() throws IOException {
		meta("pyftpdlib");
		targets(String.join("\n", "wharf-p512\tp512\t512M\t4\t0-1\t0-1\t3\t1\t1\tflags\t0",
				"proftpd\t-\t512M\t4\t0-1\t0-1\t\t1\t1\tproftpd 1.3.8\t0",
				"twisted\t-\t512M\t4\t0-1\t0-1\t\t1\t1\tTwisted 25.5.0\t0"));
		for (String target : List.of("wharf-p512", "proftpd", "twisted")) {
			for (int i = 1; i <= 3; i++) {
				Files.writeString(this.run.resolve("ftpbench-" + target + "-" + i + ".txt"),
						"STOR (client -> server)                              " + (100 * i) + ".00 MB/sec  8.1M\n",
						StandardCharsets.UTF_8);
			}
		}
		Files.writeString(this.run.resolve("ftpbench-cpu.tsv"),
				String.join("\n", "target\trun\tserver_cpu_us\tloadgen_cpu_us\twall_ms",
						"wharf-p512\t1\t2000000\t1500000\t60000", "proftpd\t1\t3000000\t1400000\t61000",
						"wharf-p512\t2\t4000000\t1700000\t62000", "proftpd\t2\t5000000\t\t60500",
						"wharf-p512\t3\t3000000\t1600000\t61000", ""),
				StandardCharsets.UTF_8);
		String markdown = new Report(new RunData(this.run, "")).render("pyftpdlib");
		assertThat(markdown)
			.contains("| benchmark type | wharf-p512 | proftpd | twisted | pyftpdlib 1.0.0 (published) |")
			.contains("| STOR (client -> server) | 200.00 MB/sec [100.00–300.00] | 200.00 MB/sec [100.00–300.00] | "
					+ "200.00 MB/sec [100.00–300.00] | 585.90 MB/sec |")
			.contains("| server | runs | wall time of an ftpbench run | server CPU per run | ftpbench CPU per run |")
			.contains("| wharf-p512 | 3 | 61.00 s [60.00–62.00] | 3.00 s [2.00–4.00] | 1.60 s [1.50–1.70] |")
			.contains("| proftpd | 2 | 61.00 s [60.50–61.00] | 5.00 s [3.00–5.00] | 1.40 s |");
		assertThat(markdown.substring(markdown.indexOf("## CPU"))).as("a server without CPU figures")
			.doesNotContain("| twisted |");
	}

	@Test
	void publishingCopiesTheGatlingReportsAndDrawsThePlotsTheReportLinks(@TempDir Path repository, @TempDir Path docs)
			throws IOException {
		meta("profiles");
		targets(String.join("\n", "wharf-p96\tp96\t96M\t1\t0\t1\t1.8\t137000\t0\t-Xmx40m\t0",
				"wharf-p512\tp512\t512M\t4\t0-1\t0-1\t2.1\t280000\t0\t-Xmx256m\t0"));
		List<LevelResult> levels = new ArrayList<>();
		for (String target : List.of("wharf-p96", "wharf-p512")) {
			for (int c : List.of(1, 10, 100)) {
				levels.add(new LevelResult("actuator", target, "health", c, 2000, 2000, 0, 0, 100 + c, 100, 200, 300, 1,
						2));
			}
		}
		LevelResult.append(this.run.resolve("results.tsv"), levels);
		Files.writeString(this.run.resolve("rss-wharf-p96.tsv"), "1000\t90000\t95000\n1250\t91000\t96000\n",
				StandardCharsets.UTF_8);
		Files.write(this.run.resolve("gatling.tar.xz"), new byte[] { (byte) 0xfd, '7', 'z', 'X', 'Z', 0 });
		Path old = Files.createDirectories(docs.resolve("plots")).resolve("profiles-from-an-old-run.svg");
		Files.writeString(old, "<svg/>", StandardCharsets.UTF_8);
		Publication.publish("profiles", this.run, docs, repository);
		assertThat(docs.resolve("results/gatling/profiles.tar.xz"))
			.hasBinaryContent(new byte[] { (byte) 0xfd, '7', 'z', 'X', 'Z', 0 });
		assertThat(old).as("an earlier run's plot of the table").doesNotExist();
		assertThat(docs.resolve("plots/profiles-throughput.svg")).exists();
		assertThat(docs.resolve("plots/profiles-latency.svg")).exists();
		assertThat(docs.resolve("plots/profiles-memory.svg")).exists();
		assertThat(Files.readString(docs.resolve("profiles.md"), StandardCharsets.UTF_8))
			.contains("| Plots | [req/s against concurrency](plots/profiles-throughput.svg), [latency percentiles]"
					+ "(plots/profiles-latency.svg), [memory over time](plots/profiles-memory.svg) |")
			.contains(
					"| Gatling reports | [results/gatling/profiles.tar.xz](results/gatling/profiles.tar.xz) (the HTML "
							+ "reports of this run, tar.xz) |");
		assertThat(Files.readString(docs.resolve("README.md"), StandardCharsets.UTF_8)).as("the index")
			.contains("| [profiles.md](profiles.md) | [latency](plots/profiles-latency.svg), "
					+ "[memory](plots/profiles-memory.svg), [throughput](plots/profiles-throughput.svg) |");
	}

	/**
	 * A result of Socko's first test (87 B, c=100, 500,000 requests) that took
	 * {@code millis}.
	 */
	private static LevelResult sockoLevel(String target, long ok, long failed, long start, long millis,
			long p99Micros) {
		return new LevelResult("socko", target, "87 B", 100, 500_000, ok, failed, start, start + millis, 1_000, 2_000,
				p99Micros);
	}

	private void meta(String table) throws IOException {
		Files.writeString(this.run.resolve("meta.properties"),
				"table=" + table + "\ncommand=load-tests/run.sh " + table + "\nscale=1\n", StandardCharsets.UTF_8);
	}

	private void targets(String line) throws IOException {
		Files.writeString(this.run.resolve("targets.tsv"), "name\tprofile\n" + line + "\n", StandardCharsets.UTF_8);
	}

}
