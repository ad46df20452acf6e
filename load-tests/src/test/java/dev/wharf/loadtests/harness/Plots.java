package dev.wharf.loadtests.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Rectangle;
import java.awt.Stroke;
import java.awt.geom.Line2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

import dev.wharf.loadtests.LevelResult;

/**
 * Draws a run's figures as SVG files under {@code docs/benchmarks/plots/} with
 * JFreeChart, from the same raw results the report is written from: requests per second
 * against concurrency for every server of the run (one series each, the band the runs'
 * range), latency percentiles (50 % and 99 % of each level's median run), memory over
 * time (each server's last start: RSS, and the cgroup's usage where it had one), and for
 * the FTP table ftpbench's rates and times. A table whose parts each ran at one
 * concurrency (Socko's) gets bars instead of lines. Each server keeps its colour in every
 * figure of a table.
 *
 * <p>
 * Stateless; not safe to call for the same table from two threads at once (they would
 * write the same files).
 */
final class Plots {

	/**
	 * A figure written: its path relative to {@code docs/benchmarks} and what a link to
	 * it says.
	 */
	record Figure(String file, String caption) {
	}

	static final int WIDTH = 820;

	private static final int SUBPLOT_HEIGHT = 210;

	private static final int MAX_POINTS = 400;

	/** Tableau's ten colours: told apart on screen and in print. */
	private static final Color[] PALETTE = { new Color(0x4e79a7), new Color(0xf28e2b), new Color(0xe15759),
			new Color(0x76b7b2), new Color(0x59a14f), new Color(0xedc948), new Color(0xb07aa1), new Color(0xff9da7),
			new Color(0x9c755f), new Color(0xbab0ac) };

	private static final Stroke SOLID = new BasicStroke(2f);

	private static final Stroke DOTTED = new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f,
			new float[] { 2f, 4f }, 0f);

	static final String CONCURRENCY = "concurrent connections";

	static final String RATE = "requests per second";

	static final String LATENCY = "latency (ms, log scale)";

	private Plots() {
	}

	/**
	 * Writes every figure of a run, replacing the table's previous ones.
	 * @param table the table, such as {@code socko}
	 * @param run its results
	 * @param docs the benchmarks folder; the figures go to its {@code plots/}
	 * @return the figures written, in the order a report links them
	 * @throws IOException when a file cannot be written
	 */
	static List<Figure> write(String table, RunData run, Path docs) throws IOException {
		Path folder = Files.createDirectories(docs.resolve("plots"));
		try (Stream<Path> old = Files.list(folder)) {
			for (Path file : old.filter((f) -> f.getFileName().toString().startsWith(table + "-")).toList()) {
				Files.delete(file);
			}
		}
		Map<String, Color> colours = colours(run);
		List<Figure> plots = new ArrayList<>();
		Map<String, JFreeChart> charts = new LinkedHashMap<>();
		if (!run.levels().isEmpty()) {
			charts.put("throughput", throughput(table, run, colours));
			charts.put("latency", latency(table, run, colours));
		}
		if (table.equals("pyftpdlib")) {
			ftpbench(table, run, colours, false).ifPresent((c) -> charts.put("rates", c));
			ftpbench(table, run, colours, true).ifPresent((c) -> charts.put("times", c));
		}
		memory(table, run, colours).ifPresent((c) -> charts.put("memory", c));
		for (Map.Entry<String, JFreeChart> chart : charts.entrySet()) {
			String name = table + "-" + chart.getKey() + ".svg";
			int height = height(chart.getValue());
			Files.writeString(folder.resolve(name), svg(chart.getValue(), name, WIDTH, height), StandardCharsets.UTF_8);
			plots.add(new Figure(docs.relativize(folder.resolve(name)).toString(), caption(chart.getKey())));
		}
		return plots;
	}

	private static String caption(String kind) {
		return switch (kind) {
			case "throughput" -> "req/s against concurrency";
			case "latency" -> "latency percentiles";
			case "rates" -> "ftpbench rates";
			case "times" -> "ftpbench times";
			case "memory" -> "memory over time";
			default -> kind;
		};
	}

	/** One colour per server, in the order they ran. */
	static Map<String, Color> colours(RunData run) {
		Map<String, Color> colours = new LinkedHashMap<>();
		for (String target : run.targetNames()) {
			colours.put(target, PALETTE[colours.size() % PALETTE.length]);
		}
		return colours;
	}

	private static int height(JFreeChart chart) {
		if (chart.getPlot() instanceof CombinedDomainXYPlot combined) {
			return 150 + SUBPLOT_HEIGHT * combined.getSubplots().size();
		}
		return 480;
	}

	static String svg(JFreeChart chart, String name, int width, int height) {
		// Rotated labels (the vertical axes') as text, not as the glyphs' outlines:
		// searchable and a fraction of the size.
		TextUtils.setUseDrawRotatedStringWorkaround(false);
		SVGGraphics2D g2 = new SVGGraphics2D(width, height);
		// Fixed ids and rounded coordinates: the same results give the same file, and a
		// small one.
		g2.setDefsKeyPrefix(name.replaceAll("[^A-Za-z0-9]", "-"));
		g2.setGeomDoubleConverter(SVGUtils.createDoubleConverter(1));
		g2.setTransformDoubleConverter(SVGUtils.createDoubleConverter(3));
		chart.draw(g2, new Rectangle(0, 0, width, height));
		return g2.getSVGDocument() + "\n";
	}

	// ------------------------------------------------------------------------------------------
	// levels

	/**
	 * The parts of a run in the order they first ran, and whether any ran at more than
	 * one concurrency.
	 */
	private static List<String> parts(RunData run) {
		return run.levels().stream().map(LevelRuns::part).distinct().toList();
	}

	private static boolean overConcurrency(RunData run) {
		return run.levels()
			.stream()
			.collect(Collectors.groupingBy(LevelRuns::part,
					Collectors.mapping(LevelRuns::concurrency, Collectors.toSet())))
			.values()
			.stream()
			.anyMatch((levels) -> levels.size() > 1);
	}

	/**
	 * Requests per second of every server: against concurrency, one subplot per part, the
	 * runs' range as a band; or, when every part ran at one concurrency, bars per part.
	 */
	static JFreeChart throughput(String table, RunData run, Map<String, Color> colours) {
		String title = table + ": " + RATE
				+ ((run.runs() > 1) ? " (median of " + run.runs() + " runs, band: their range)" : "");
		if (!overConcurrency(run)) {
			return bars(title, RATE, run, colours, List.of(LevelRuns::rate));
		}
		CombinedDomainXYPlot plot = new CombinedDomainXYPlot(concurrencyAxis(run));
		plot.setGap(12);
		for (String part : parts(run)) {
			YIntervalSeriesCollection data = new YIntervalSeriesCollection();
			DeviationRenderer renderer = new DeviationRenderer(true, true);
			renderer.setAlpha(0.15f);
			renderer.setDrawSeriesLineAsPath(true);
			for (String target : colours.keySet()) {
				YIntervalSeries series = new YIntervalSeries(target);
				for (LevelRuns level : run.levels()) {
					if (level.target().equals(target) && level.part().equals(part)) {
						double[] range = level.runs().stream().mapToDouble(LevelResult::requestsPerSecond).toArray();
						series.add(level.concurrency(), level.median().requestsPerSecond(), min(range), max(range));
					}
				}
				if (!series.isEmpty()) {
					int i = data.getSeriesCount();
					data.addSeries(series);
					renderer.setSeriesPaint(i, colours.get(target));
					renderer.setSeriesFillPaint(i, colours.get(target));
					renderer.setSeriesStroke(i, SOLID);
				}
			}
			NumberAxis rate = new NumberAxis(part + ": req/s");
			rate.setAutoRangeIncludesZero(true);
			plot.add(new XYPlot(data, null, rate, renderer), 1);
		}
		return chart(title, plot, serverLegend(colours, withLevels(run), List.of()));
	}

	/**
	 * The 50th and 99th percentile latency of each level's median run, per part, on a log
	 * scale.
	 */
	static JFreeChart latency(String table, RunData run, Map<String, Color> colours) {
		String title = table + ": latency, 50 % (dotted) and 99 % (solid) of each level's median run";
		if (!overConcurrency(run)) {
			return bars(title, "latency (ms)", run, colours,
					List.of((l) -> l.median().p50Micros() / 1000.0, (l) -> l.median().p99Micros() / 1000.0));
		}
		CombinedDomainXYPlot plot = new CombinedDomainXYPlot(concurrencyAxis(run));
		plot.setGap(12);
		for (String part : parts(run)) {
			XYSeriesCollection data = new XYSeriesCollection();
			XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
			renderer.setDrawSeriesLineAsPath(true);
			for (String target : colours.keySet()) {
				XYSeries p50 = new XYSeries(target + " 50 %");
				XYSeries p99 = new XYSeries(target + " 99 %");
				for (LevelRuns level : run.levels()) {
					if (level.target().equals(target) && level.part().equals(part)) {
						LevelResult median = level.median();
						if (median.p50Micros() > 0) {
							p50.add(level.concurrency(), median.p50Micros() / 1000.0);
						}
						if (median.p99Micros() > 0) {
							p99.add(level.concurrency(), median.p99Micros() / 1000.0);
						}
					}
				}
				for (XYSeries series : List.of(p50, p99)) {
					if (!series.isEmpty()) {
						int i = data.getSeriesCount();
						data.addSeries(series);
						renderer.setSeriesPaint(i, colours.get(target));
						renderer.setSeriesStroke(i, (series == p50) ? DOTTED : SOLID);
					}
				}
			}
			LogAxis axis = new LogAxis(part + ": ms");
			axis.setSmallestValue(0.01);
			decades(axis, "0.##");
			plot.add(new XYPlot(data, null, axis, renderer), 1);
		}
		return chart(title, plot, serverLegend(colours, withLevels(run), List.of(
				new LegendItem("50 %", null, null, null, new Line2D.Double(-7, 0, 7, 0), DOTTED, Color.DARK_GRAY),
				new LegendItem("99 %", null, null, null, new Line2D.Double(-7, 0, 7, 0), SOLID, Color.DARK_GRAY))));
	}

	/** Bars per part (its concurrency in the label), one per server and figure. */
	private static JFreeChart bars(String title, String axis, RunData run, Map<String, Color> colours,
			List<ToDoubleFunction<LevelRuns>> values) {
		DefaultCategoryDataset data = new DefaultCategoryDataset();
		for (int v = 0; v < values.size(); v++) {
			for (String target : colours.keySet()) {
				for (LevelRuns level : run.levels()) {
					if (level.target().equals(target)) {
						String key = target + ((values.size() > 1) ? ((v == 0) ? " 50 %" : " 99 %") : "");
						data.addValue(values.get(v).applyAsDouble(level), key,
								level.part() + ", c=" + level.concurrency());
					}
				}
			}
		}
		BarRenderer renderer = barRenderer();
		renderer.setItemMargin(0.05);
		CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(), new NumberAxis(axis), renderer);
		List<String> keys = new ArrayList<>();
		data.getRowKeys().forEach((k) -> keys.add(k.toString()));
		for (int i = 0; i < keys.size(); i++) {
			String target = keys.get(i).replaceAll(" (50|99) %$", "");
			Color colour = colours.get(target);
			renderer.setSeriesPaint(i, keys.get(i).endsWith(" 50 %") ? lighter(colour) : colour);
		}
		List<LegendItem> extra = (values.size() > 1)
				? List.of(new LegendItem("50 % (light)", Color.GRAY), new LegendItem("99 % (dark)", Color.DARK_GRAY))
				: List.of();
		return chart(title, plot, serverLegend(colours, withLevels(run), extra));
	}

	private static ValueAxis concurrencyAxis(RunData run) {
		int lowest = run.levels().stream().mapToInt(LevelRuns::concurrency).min().orElse(1);
		int highest = run.levels().stream().mapToInt(LevelRuns::concurrency).max().orElse(1);
		if (highest >= 10L * lowest) {
			LogAxis axis = new LogAxis(CONCURRENCY + " (log scale)");
			axis.setSmallestValue(1);
			decades(axis, "0");
			return axis;
		}
		NumberAxis axis = new NumberAxis(CONCURRENCY);
		axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
		return axis;
	}

	/**
	 * Ticks at powers of ten only (1, 10, 100…), without minor ticks: readable, and fewer
	 * elements in the SVG.
	 */
	private static void decades(LogAxis axis, String format) {
		axis.setTickUnit(new NumberTickUnit(1));
		axis.setMinorTickCount(1);
		axis.setMinorTickMarksVisible(false);
		axis.setNumberFormatOverride(new DecimalFormat(format));
	}

	// ------------------------------------------------------------------------------------------
	// ftpbench

	/**
	 * ftpbench's rates (MB/sec rows) or times (secs rows): the median of the runs, bars
	 * per row and server.
	 */
	static Optional<JFreeChart> ftpbench(String table, RunData run, Map<String, Color> colours, boolean times) {
		DefaultCategoryDataset data = new DefaultCategoryDataset();
		for (String target : colours.keySet()) {
			Map<String, List<RunData.FtpbenchRow>> byRow = new LinkedHashMap<>();
			for (List<RunData.FtpbenchRow> rows : run.ftpbenchRows(target)) {
				for (RunData.FtpbenchRow row : rows) {
					if (row.isTime() == times) {
						byRow.computeIfAbsent(row.row(), (k) -> new ArrayList<>()).add(row);
					}
				}
			}
			byRow.forEach((row, samples) -> data
				.addValue(RunData.median(samples, RunData.FtpbenchRow::value).orElseThrow().value(), target, row));
		}
		if (data.getRowCount() == 0) {
			return Optional.empty();
		}
		String axis = times ? "seconds (lower is better)" : "MB/sec";
		BarRenderer renderer = barRenderer();
		List<String> present = new ArrayList<>();
		for (int i = 0; i < data.getRowCount(); i++) {
			present.add(data.getRowKey(i).toString());
			renderer.setSeriesPaint(i, colours.get(data.getRowKey(i).toString()));
		}
		CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(), new NumberAxis(axis), renderer);
		return Optional.of(chart(table + ": ftpbench " + (times ? "times" : "rates") + " (median of the runs)", plot,
				serverLegend(colours, present, List.of())));
	}

	// ------------------------------------------------------------------------------------------
	// memory

	/**
	 * Each server's last start: RSS (solid) and its cgroup's usage (dotted) against
	 * seconds since it started.
	 */
	static Optional<JFreeChart> memory(String table, RunData run, Map<String, Color> colours) {
		XYSeriesCollection data = new XYSeriesCollection();
		XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
		// One path per series, not a line element per segment: a tenth of the file.
		renderer.setDrawSeriesLineAsPath(true);
		boolean cgroup = false;
		List<String> present = new ArrayList<>();
		for (String target : colours.keySet()) {
			List<List<long[]>> runs = run.memoryRuns(target);
			if (runs.isEmpty()) {
				continue;
			}
			present.add(target);
			List<long[]> last = runs.get(runs.size() - 1);
			long start = last.get(0)[0];
			XYSeries rss = new XYSeries(target + " RSS");
			XYSeries charged = new XYSeries(target + " cgroup");
			for (long[] point : downsample(last)) {
				rss.add((point[0] - start) / 1000.0, point[1] / 1024.0);
				if (point[2] >= 0) {
					charged.add((point[0] - start) / 1000.0, point[2] / 1024.0);
				}
			}
			for (XYSeries series : List.of(rss, charged)) {
				if (!series.isEmpty()) {
					int i = data.getSeriesCount();
					data.addSeries(series);
					renderer.setSeriesPaint(i, colours.get(target));
					renderer.setSeriesStroke(i, (series == rss) ? SOLID : DOTTED);
					cgroup |= series == charged;
				}
			}
		}
		if (data.getSeriesCount() == 0) {
			return Optional.empty();
		}
		NumberAxis seconds = new NumberAxis("seconds since the server started (its last start in this run)");
		NumberAxis megabytes = new NumberAxis("memory (MiB)");
		XYPlot plot = new XYPlot(data, seconds, megabytes, renderer);
		List<LegendItem> extra = cgroup ? List.of(
				new LegendItem("RSS", null, null, null, new Line2D.Double(-7, 0, 7, 0), SOLID, Color.DARK_GRAY),
				new LegendItem("cgroup usage", null, null, null, new Line2D.Double(-7, 0, 7, 0), DOTTED,
						Color.DARK_GRAY))
				: List.of();
		return Optional.of(chart(table + ": memory over time", plot, serverLegend(colours, present, extra)));
	}

	/**
	 * At most {@value #MAX_POINTS} samples: the highest of each stretch, so that no peak
	 * is lost.
	 */
	static List<long[]> downsample(List<long[]> samples) {
		if (samples.size() <= MAX_POINTS) {
			return samples;
		}
		List<long[]> points = new ArrayList<>();
		double step = samples.size() / (double) MAX_POINTS;
		for (int b = 0; b < MAX_POINTS; b++) {
			int from = (int) (b * step);
			int to = Math.min(samples.size(), (int) ((b + 1) * step));
			long[] peak = samples.get(from);
			for (int i = from; i < to; i++) {
				if (samples.get(i)[1] > peak[1]) {
					peak = samples.get(i);
				}
			}
			points.add(peak);
		}
		return points;
	}

	// ------------------------------------------------------------------------------------------
	// common

	/**
	 * A chart in the harness's style: white, light grid lines, the legend below. No chart
	 * theme is applied: a theme resets the series' colours, which must stay one per
	 * server.
	 */
	private static JFreeChart chart(String title, Plot plot, LegendTitle legend) {
		JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, false);
		List<Plot> plots = new ArrayList<>(List.of(plot));
		if (plot instanceof CombinedDomainXYPlot combined) {
			plots.addAll(combined.getSubplots());
		}
		for (Plot each : plots) {
			each.setBackgroundPaint(Color.WHITE);
			if (each instanceof XYPlot xy) {
				xy.setDomainGridlinePaint(Color.LIGHT_GRAY);
				xy.setRangeGridlinePaint(Color.LIGHT_GRAY);
			}
			else if (each instanceof CategoryPlot category) {
				category.setRangeGridlinePaint(Color.LIGHT_GRAY);
				category.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
			}
		}
		chart.setBackgroundPaint(Color.WHITE);
		chart.addSubtitle(legend);
		return chart;
	}

	private static BarRenderer barRenderer() {
		BarRenderer renderer = new BarRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		return renderer;
	}

	/** The servers with at least one level. */
	private static List<String> withLevels(RunData run) {
		return run.levels().stream().map(LevelRuns::target).distinct().toList();
	}

	/**
	 * One legend entry per server drawn (its colour), then the given ones (what the line
	 * styles mean).
	 */
	private static LegendTitle serverLegend(Map<String, Color> colours, List<String> drawn, List<LegendItem> extra) {
		LegendItemCollection items = new LegendItemCollection();
		colours.forEach((target, colour) -> {
			if (drawn.contains(target)) {
				items.add(new LegendItem(target, colour));
			}
		});
		extra.forEach(items::add);
		LegendTitle legend = new LegendTitle(() -> items);
		legend.setPosition(RectangleEdge.BOTTOM);
		legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
		legend.setBackgroundPaint(Color.WHITE);
		return legend;
	}

	private static Paint lighter(Color colour) {
		return new Color((colour.getRed() + 255 * 2) / 3, (colour.getGreen() + 255 * 2) / 3,
				(colour.getBlue() + 255 * 2) / 3);
	}

	private static double min(double[] values) {
		return Arrays.stream(values).min().orElse(0);
	}

	private static double max(double[] values) {
		return Arrays.stream(values).max().orElse(0);
	}

}
