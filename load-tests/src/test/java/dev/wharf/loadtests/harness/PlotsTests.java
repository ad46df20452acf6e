package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemSource;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.wharf.loadtests.LevelResult;

import static org.assertj.core.api.Assertions.assertThat;

class PlotsTests {

	@TempDir
	Path run;

	@TempDir
	Path docs;

	@Test
	void throughputHasOneSeriesPerServerInEachPartWithTheRunsRangeAndLabelledAxes() throws IOException {
		RunData data = filestashRun();
		List<Plots.Figure> figures = Plots.write("filestash-loadtest", data, this.docs);
		assertThat(figures).extracting(Plots.Figure::file)
			.containsExactly("plots/filestash-loadtest-throughput.svg", "plots/filestash-loadtest-latency.svg",
					"plots/filestash-loadtest-memory.svg");
		JFreeChart chart = Plots.throughput("filestash-loadtest", data, Plots.colours(data));
		CombinedDomainXYPlot plot = (CombinedDomainXYPlot) chart.getPlot();
		assertThat(plot.getSubplots()).as("one subplot per part").hasSize(2);
		for (XYPlot part : plot.getSubplots()) {
			assertThat(part.getDataset().getSeriesCount()).as("one series per server").isEqualTo(2);
			assertThat(part.getDataset().getSeriesKey(0)).isEqualTo("wharf-p512");
			assertThat(part.getDataset().getSeriesKey(1)).isEqualTo("filestash-p512");
		}
		org.jfree.data.xy.YIntervalSeriesCollection ls = (org.jfree.data.xy.YIntervalSeriesCollection) plot
			.getSubplots()
			.get(0)
			.getDataset();
		assertThat(ls.getYValue(0, 0)).as("the median run at c=100").isEqualTo(10_000);
		assertThat(ls.getStartYValue(0, 0)).as("the slowest run").isEqualTo(8_000);
		assertThat(ls.getEndYValue(0, 0)).as("the fastest run").isEqualTo(12_500);
		assertThat(legend(chart)).containsExactly("wharf-p512", "filestash-p512");
		String svg = Files.readString(this.docs.resolve("plots/filestash-loadtest-throughput.svg"),
				StandardCharsets.UTF_8);
		assertThat(svg).startsWith("<?xml")
			.contains(">concurrent connections (log scale)</text>")
			.contains(">ls-memory: req/s</text>")
			.contains(">ls-sftp: req/s</text>")
			.contains(">wharf-p512</text>")
			.contains(">filestash-p512</text>");
		assertThat(svg.length()).as("a small file").isLessThan(60_000);
		assertThat(Plots.svg(chart, "filestash-loadtest-throughput.svg", Plots.WIDTH, 500))
			.as("the same results draw the same file")
			.isEqualTo(Plots.svg(Plots.throughput("filestash-loadtest", data, Plots.colours(data)),
					"filestash-loadtest-throughput.svg", Plots.WIDTH, 500));
	}

	@Test
	void latencyDrawsTheMedianRunsPercentilesOfEachServer() throws IOException {
		RunData data = filestashRun();
		JFreeChart chart = Plots.latency("filestash-loadtest", data, Plots.colours(data));
		XYPlot ls = ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().get(0);
		assertThat(ls.getDataset().getSeriesCount()).as("50 %% and 99 %% of each server").isEqualTo(4);
		assertThat(ls.getDataset().getSeriesKey(1)).isEqualTo("wharf-p512 99 %");
		assertThat(ls.getDataset().getYValue(1, 0)).as("the median run's 99th percentile in ms").isEqualTo(3.0);
		assertThat(ls.getRangeAxis().getLabel()).isEqualTo("ls-memory: ms");
		assertThat(legend(chart)).containsExactly("wharf-p512", "filestash-p512", "50 %", "99 %");
	}

	@Test
	void memoryDrawsEachServersLastStartAgainstSecondsSinceItBegan() throws IOException {
		RunData data = filestashRun();
		JFreeChart chart = Plots.memory("filestash-loadtest", data, Plots.colours(data)).orElseThrow();
		XYPlot plot = (XYPlot) chart.getPlot();
		assertThat(plot.getDataset().getSeriesCount()).as("RSS and cgroup of Wharf, RSS of Filestash").isEqualTo(3);
		assertThat(plot.getDataset().getSeriesKey(0)).isEqualTo("wharf-p512 RSS");
		assertThat(plot.getDataset().getXValue(0, 0)).as("its last start begins at 0 s").isEqualTo(0.0);
		assertThat(plot.getDataset().getYValue(0, 1)).as("MiB").isEqualTo(200.0);
		assertThat(plot.getDomainAxis().getLabel()).startsWith("seconds since the server started");
		assertThat(plot.getRangeAxis().getLabel()).isEqualTo("memory (MiB)");
		assertThat(legend(chart)).containsExactly("wharf-p512", "filestash-p512", "RSS", "cgroup usage");
	}

	@Test
	void partsAtOneConcurrencyEachAreBarsPerPartWithABarPerServer() throws IOException {
		Files.writeString(this.run.resolve("meta.properties"), "table=socko\n", StandardCharsets.UTF_8);
		List<LevelResult> levels = new ArrayList<>();
		for (String target : List.of("wharf-p512", "nginx")) {
			for (String part : List.of("87 B", "1 MiB", "87 B without keep-alive")) {
				levels.add(new LevelResult("socko", target, part, 100, 1000, 1000, 0, 0, 100, 1000, 2000, 3000));
			}
		}
		LevelResult.append(this.run.resolve("results.tsv"), levels);
		RunData data = new RunData(this.run, "");
		JFreeChart chart = Plots.throughput("socko", data, Plots.colours(data));
		CategoryPlot plot = chart.getCategoryPlot();
		assertThat(plot.getDataset().getRowKeys()).as("one series per server").containsExactly("wharf-p512", "nginx");
		assertThat(plot.getDataset().getColumnKeys()).containsExactly("87 B, c=100", "1 MiB, c=100",
				"87 B without keep-alive, c=100");
		assertThat(plot.getRangeAxis().getLabel()).isEqualTo(Plots.RATE);
		assertThat(legend(chart)).containsExactly("wharf-p512", "nginx");
	}

	@Test
	void ftpbenchRatesAndTimesAreBarsPerRowWithABarPerServer() throws IOException {
		Files.writeString(this.run.resolve("meta.properties"), "table=pyftpdlib\n", StandardCharsets.UTF_8);
		Files.writeString(this.run.resolve("targets.tsv"),
				"name\nwharf-p512\t-\t-\t-\t-\t-\t-\t0\t0\t-\t0\n" + "proftpd\t-\t-\t-\t-\t-\t-\t0\t0\t-\t0\n",
				StandardCharsets.UTF_8);
		for (String target : List.of("wharf-p512", "proftpd")) {
			Files.writeString(this.run.resolve("ftpbench-" + target + "-1.txt"),
					"STOR (client -> server)                              100.00 MB/sec  8.1M\n"
							+ "300 concurrent clients (connect, login)                  0.50 secs    8.2M\n",
					StandardCharsets.UTF_8);
		}
		RunData data = new RunData(this.run, "");
		List<Plots.Figure> figures = Plots.write("pyftpdlib", data, this.docs);
		assertThat(figures).extracting(Plots.Figure::file)
			.containsExactly("plots/pyftpdlib-rates.svg", "plots/pyftpdlib-times.svg");
		CategoryPlot rates = Plots.ftpbench("pyftpdlib", data, Plots.colours(data), false)
			.orElseThrow()
			.getCategoryPlot();
		assertThat(rates.getDataset().getRowKeys()).containsExactly("wharf-p512", "proftpd");
		assertThat(rates.getDataset().getColumnKeys()).containsExactly("STOR (client -> server)");
		assertThat(rates.getRangeAxis().getLabel()).isEqualTo("MB/sec");
		CategoryPlot times = Plots.ftpbench("pyftpdlib", data, Plots.colours(data), true)
			.orElseThrow()
			.getCategoryPlot();
		assertThat(times.getDataset().getColumnKeys()).containsExactly("300 concurrent clients (connect, login)");
		assertThat(times.getRangeAxis().getLabel()).isEqualTo("seconds (lower is better)");
	}

	@Test
	void manySamplesAreThinnedKeepingEachStretchsPeak() {
		List<long[]> samples = new ArrayList<>();
		for (int i = 0; i < 4000; i++) {
			samples.add(new long[] { i * 250L, (i == 1234) ? 999_999 : 1000 + i % 7, -1 });
		}
		List<long[]> thinned = Plots.downsample(samples);
		assertThat(thinned).hasSizeLessThanOrEqualTo(400);
		assertThat(thinned).anySatisfy((p) -> assertThat(p[1]).isEqualTo(999_999));
	}

	/**
	 * Wharf and Filestash, three runs each of ls-memory and ls-sftp at c=100 and 1000,
	 * and memory samples.
	 */
	private RunData filestashRun() throws IOException {
		Files.writeString(this.run.resolve("meta.properties"), "table=filestash-loadtest\n", StandardCharsets.UTF_8);
		Files.writeString(this.run.resolve("targets.tsv"), "name\nwharf-p512\tp512\t512M\t4\t0-1\t0-1\t2\t0\t0\t-\t0\n"
				+ "filestash-p512\t-\t512M\t4\t0-1\t0-1\t\t0\t0\t-\t0\n", StandardCharsets.UTF_8);
		List<LevelResult> levels = new ArrayList<>();
		long[] wharfMillis = { 10_000, 8_000, 12_500 };
		for (int i = 0; i < 3; i++) {
			for (String part : List.of("ls-memory", "ls-sftp")) {
				for (int c : List.of(100, 1000)) {
					levels.add(new LevelResult("filestash-loadtest", "wharf-p512", part, c, 100_000, 100_000, 0, 0,
							wharfMillis[i], 1_000, 2_000, 3_000, 1, 1));
					levels.add(new LevelResult("filestash-loadtest", "filestash-p512", part, c, 100_000, 100_000, 0, 0,
							20_000, 2_000, 4_000, 6_000, 1, 1));
				}
			}
		}
		LevelResult.append(this.run.resolve("results.tsv"), levels);
		// Two starts of Wharf (the plot takes the last), one of Filestash without a
		// cgroup.
		Files.writeString(this.run.resolve("rss-wharf-p512.tsv"),
				"1000\t100000\t110000\n1250\t110000\t120000\n90000\t102400\t110000\n90250\t204800\t220000\n90500\t0\n",
				StandardCharsets.UTF_8);
		Files.writeString(this.run.resolve("rss-filestash-p512.tsv"), "5000\t30000\n5250\t31000\n",
				StandardCharsets.UTF_8);
		return new RunData(this.run, "");
	}

	private static List<String> legend(JFreeChart chart) {
		List<String> labels = new ArrayList<>();
		for (int i = 0; i < chart.getSubtitleCount(); i++) {
			if (chart.getSubtitle(i) instanceof LegendTitle legend) {
				for (LegendItemSource source : legend.getSources()) {
					for (int j = 0; j < source.getLegendItems().getItemCount(); j++) {
						labels.add(source.getLegendItems().get(j).getLabel());
					}
				}
			}
		}
		return labels;
	}

}
