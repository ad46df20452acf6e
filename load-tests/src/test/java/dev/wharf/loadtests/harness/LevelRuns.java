package dev.wharf.loadtests.harness;

import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

import dev.wharf.loadtests.LevelResult;

/**
 * Every run of one level of one server ({@code run.sh --runs N} starts each server N
 * times, alternating with its peers), and the figures a report prints for it: the median
 * and the range (lowest–highest) over the runs.
 *
 * @param runs the level's results, one a run, in the order they ran; never empty
 */
record LevelRuns(List<LevelResult> runs) {

	LevelRuns {
		if (runs.isEmpty()) {
			throw new IllegalArgumentException("A level without runs");
		}
		runs = List.copyOf(runs);
	}

	String target() {
		return this.runs.get(0).target();
	}

	String part() {
		return this.runs.get(0).part();
	}

	int concurrency() {
		return this.runs.get(0).concurrency();
	}

	/**
	 * The run with the median requests per second (of an even count, the upper one): the
	 * rows of a report.
	 */
	LevelResult median() {
		return RunData.median(this.runs, LevelResult::requestsPerSecond).orElseThrow();
	}

	/**
	 * Requests per second of the median run, 0 when it failed entirely or had failures:
	 * what ratios are taken of.
	 */
	double rate() {
		LevelResult median = median();
		return (median.ok() > 0 && median.failed() == 0) ? median.requestsPerSecond() : 0;
	}

	/** Failed requests summed over the runs. */
	long failed() {
		return this.runs.stream().mapToLong(LevelResult::failed).sum();
	}

	/**
	 * A table cell as the originals wrote it: "N req/s", with the median run's failures
	 * and, over several runs, the range: "N req/s (F failed) [LOW–HIGH]"; "failed" when
	 * the median run answered nothing.
	 */
	String cell() {
		LevelResult r = median();
		if (r.ok() == 0) {
			return "failed";
		}
		String rate = Markdown.rate(r.requestsPerSecond()) + " req/s";
		return ((r.failed() > 0) ? rate + " (" + r.failed() + " failed)" : rate)
				+ range(this.runs, LevelResult::requestsPerSecond, Markdown::rate);
	}

	/**
	 * The median over the runs of a value that may be unknown (negative), such as CPU per
	 * request.
	 * @param value a run's value
	 * @return the median of the known values, or -1 when none is known
	 */
	double medianOf(ToDoubleFunction<LevelResult> value) {
		List<Double> known = this.runs.stream().map(value::applyAsDouble).filter((v) -> v >= 0).sorted().toList();
		return known.isEmpty() ? -1 : known.get(known.size() / 2);
	}

	/**
	 * The server's CPU per request, median over the runs with its range: "52 µs [48–60]",
	 * or "–" when unknown.
	 */
	String serverCpu() {
		return cpu(LevelResult::serverCpuMicrosPerRequest);
	}

	/** The load generator's CPU per request, as {@link #serverCpu}. */
	String loadgenCpu() {
		return cpu(LevelResult::loadgenCpuMicrosPerRequest);
	}

	private String cpu(ToDoubleFunction<LevelResult> value) {
		double median = medianOf(value);
		if (median < 0) {
			return "–";
		}
		List<LevelResult> known = this.runs.stream().filter((r) -> value.applyAsDouble(r) >= 0).toList();
		// The range in the median's unit: "1.6 ms [1.2–1.6]", "52 µs [48–60]".
		DoubleFunction<String> unit = (median < 1000) ? LevelRuns::number
				: (v) -> String.format(Locale.ROOT, "%.1f", v / 1000);
		return micros(median) + range(known, value, unit);
	}

	/** Microseconds as a report prints CPU per request: "52 µs", "1.2 ms". */
	static String micros(double micros) {
		return (micros < 1000) ? number(micros) + " µs" : String.format(Locale.ROOT, "%.1f ms", micros / 1000);
	}

	private static String number(double value) {
		return (value < 10) ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.0f", value);
	}

	/**
	 * The range of several runs' values, as the tables with medians print it after the
	 * median.
	 * @param <T> a run
	 * @param runs the runs
	 * @param value a run's value
	 * @param format how a value is written
	 * @return {@code " [lowest–highest]"}, or empty for fewer than two runs
	 */
	static <T> String range(List<T> runs, ToDoubleFunction<T> value, DoubleFunction<String> format) {
		if (runs.size() < 2) {
			return "";
		}
		DoubleSummaryStatistics values = runs.stream().mapToDouble(value).summaryStatistics();
		return " [" + format.apply(values.getMin()) + "–" + format.apply(values.getMax()) + "]";
	}

}
