package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

	private void meta(String table) throws IOException {
		Files.writeString(this.run.resolve("meta.properties"), "table=" + table + "\ncommand=load-tests/run.sh " + table
				+ "\nscale=1\n", StandardCharsets.UTF_8);
	}

	private void targets(String line) throws IOException {
		Files.writeString(this.run.resolve("targets.tsv"), "name\tprofile\n" + line + "\n", StandardCharsets.UTF_8);
	}

}
