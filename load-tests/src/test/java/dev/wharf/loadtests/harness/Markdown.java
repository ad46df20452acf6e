package dev.wharf.loadtests.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Markdown table under construction, and the number formats the reports share.
 *
 * <p>
 * Not thread-safe.
 */
final class Markdown {

	private final List<String> header;

	private final List<List<String>> rows = new ArrayList<>();

	Markdown(String... header) {
		this.header = List.of(header);
	}

	Markdown row(Object... cells) {
		List<String> row = new ArrayList<>();
		for (Object cell : cells) {
			row.add(String.valueOf(cell).replace("|", "\\|"));
		}
		this.rows.add(row);
		return this;
	}

	boolean isEmpty() {
		return this.rows.isEmpty();
	}

	@Override
	public String toString() {
		StringBuilder out = new StringBuilder();
		out.append("| ").append(String.join(" | ", this.header)).append(" |\n|");
		this.header.forEach((h) -> out.append("---|"));
		out.append('\n');
		for (List<String> row : this.rows) {
			out.append("| ").append(String.join(" | ", row)).append(" |\n");
		}
		return out.toString();
	}

	static String rate(double perSecond) {
		return String.format(Locale.ROOT, "%.0f", perSecond);
	}

	static String millis(long micros) {
		return (micros < 10_000) ? String.format(Locale.ROOT, "%.1f ms", micros / 1000.0)
				: String.format(Locale.ROOT, "%.0f ms", micros / 1000.0);
	}

	static String megabytes(long kib) {
		return (kib <= 0) ? "–" : String.format(Locale.ROOT, "%.0f MB", kib / 1024.0);
	}

	static String ratio(double value, double reference) {
		return (value <= 0 || reference <= 0) ? "–" : String.format(Locale.ROOT, "×%.2f", value / reference);
	}

	static String group(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

}
