package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
	void filestashGridHasTheOriginalsShapeWithRatiosAndFailures() throws IOException {
		meta("filestash-benchmark");
		targets("wharf-p128\tp128\t128M\t2\t0-1\t0-1\t4.5\t120000\t110000\t-Xmx40m\t0");
		LevelResult.append(this.run.resolve("results.tsv"), List.of(
				new LevelResult("filestash-benchmark", "wharf-p128", "static", 1, 1000, 1000, 0, 0, 100, 1, 2, 3),
				new LevelResult("filestash-benchmark", "wharf-p128", "ls", 1, 1000, 990, 10, 0, 1000, 1, 2, 3),
				new LevelResult("filestash-benchmark", "wharf-p128", "thumbnail", 1, 1000, 0, 1000, 0, 1000, 1, 2, 3)));
		String markdown = new Report(new RunData(this.run, "")).render("filestash-benchmark");
		assertThat(markdown).contains("| Level of concurrency | Static file | List files | Transcode image |")
			.contains("| 1 | 10000 req/s (×3.22) | 990 req/s (10 failed) (–) | failed (–) |")
			.contains("128MB of RAM on 2 cores")
			.contains("`load-tests/run.sh filestash-benchmark`");
	}

	@Test
	void ftpbenchMediansComeFromEveryRun() throws IOException {
		meta("pyftpdlib");
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t3\t1\t1\tflags\t0");
		for (int i = 1; i <= 3; i++) {
			Files.writeString(this.run.resolve("ftpbench-wharf-p512-" + i + ".txt"), String.join("\n",
					"(starting with 16785408 of memory being used)",
					"STOR (client -> server)                              " + (100 * i) + ".00 MB/sec  8.1M",
					"300 concurrent clients (connect, login)                  0.0" + i + " secs    8.2M"), StandardCharsets.UTF_8);
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
		// In the order they ran: Wharf's median run first, its last run the slowest; nginx's median run last.
		LevelResult.append(this.run.resolve("results.tsv"), List.of(sockoLevel("wharf-p512", 499_997, 3, 0, 9000, 10_000),
				sockoLevel("nginx", 500_000, 0, 10_000, 8620, 5_000),
				sockoLevel("wharf-p512", 500_000, 0, 20_000, 8000, 9_000),
				sockoLevel("nginx", 500_000, 0, 30_000, 8197, 4_000),
				sockoLevel("wharf-p512", 499_999, 1, 40_000, 10_000, 12_000),
				sockoLevel("nginx", 500_000, 0, 50_000, 8333, 6_000)));
		String markdown = new Report(new RunData(this.run, "")).render("socko");
		assertThat(markdown).contains("The figures are medians of 3 alternating runs (Wharf, nginx, Wharf, …)")
			.contains("| wharf-p512 (this run) | 9.000 seconds | 55555 req/s (3 failed) [50000–62500] | 4 | 10 ms |")
			.contains("| nginx (this run) | 8.333 seconds | 60002 req/s [58005–60998] | 0 | 6.0 ms |")
			.contains("| wharf-p512 | p512 | 512M | 4 | 0-1 | 0-1 | 4.389, 3.912, 4.001 s | 251 MB | 262 MB | 1 | `-Xmx256m` |")
			.contains("| nginx | - | 512M | 4 | 0-1 | 0-1 | – | 36 MB | 17 MB | 0 | `nginx/1.22.1` |");
		assertThat(markdown.split("\n")).filteredOn((line) -> line.startsWith("| wharf-p512 |")).hasSize(1);
	}

	@Test
	void sockoWithOneRunKeepsTheSingleRunFormat() throws IOException {
		meta("socko");
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.389\t257308\t268780\t-Xmx256m\t0");
		LevelResult.append(this.run.resolve("results.tsv"), List.of(sockoLevel("wharf-p512", 499_998, 2, 0, 10_000, 11_000)));
		String markdown = new Report(new RunData(this.run, "")).render("socko");
		assertThat(markdown).contains("| wharf-p512 (this run) | 10.000 seconds | 50000 req/s (2 failed) | 2 | 11 ms |")
			.contains("| wharf-p512 | p512 | 512M | 4 | 0-1 | 0-1 | 4.389 s | 251 MB | 262 MB | 0 | `-Xmx256m` |")
			.doesNotContain("medians of")
			.doesNotContain("req/s [");
	}

	@Test
	void publishedResultsAndReportNameTheRepositorysFilesRelativeToIt(@TempDir Path repository, @TempDir Path docs)
			throws IOException {
		String archive = "platform-app/target/wharf-cds/jdk-17.0.15-p512/wharf.jsa";
		Files.writeString(this.run.resolve("meta.properties"), "table=socko\ncommand=load-tests/run.sh socko\nscale=1\n"
				+ "note=p96 left out (see " + repository.resolve("platform-app/src/main/jvm/README.md") + ")\n",
				StandardCharsets.UTF_8);
		targets("wharf-p512\tp512\t512M\t4\t0-1\t0-1\t4.389\t257308\t268780\t-Xmx256m -XX:SharedArchiveFile="
				+ repository.resolve(archive) + " \t0");
		LevelResult.append(this.run.resolve("results.tsv"), List.of(sockoLevel("wharf-p512", 500_000, 0, 0, 10_000, 11_000)));
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
		assertThat(Files.readString(docs.resolve("README.md"), StandardCharsets.UTF_8)).contains("[socko.md](socko.md)");
		try (Stream<Path> published = Files.list(results)) {
			assertThat(published.map((file) -> file.getFileName().toString())).containsExactlyInAnyOrder(
					"socko.meta.properties", "socko.targets.tsv", "socko.results.tsv");
		}
	}

	/** A result of Socko's first test (87 B, c=100, 500,000 requests) that took {@code millis}. */
	private static LevelResult sockoLevel(String target, long ok, long failed, long start, long millis, long p99Micros) {
		return new LevelResult("socko", target, "87 B", 100, 500_000, ok, failed, start, start + millis, 1_000, 2_000,
				p99Micros);
	}

	private void meta(String table) throws IOException {
		Files.writeString(this.run.resolve("meta.properties"), "table=" + table + "\ncommand=load-tests/run.sh " + table
				+ "\nscale=1\n", StandardCharsets.UTF_8);
	}

	private void targets(String line) throws IOException {
		Files.writeString(this.run.resolve("targets.tsv"), "name\tprofile\n" + line + "\n", StandardCharsets.UTF_8);
	}

}
