package dev.wharf.loadtests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One measured level of a table (one {@code ab -c N -n M} run): what was sent, what came
 * back and when. Written as one tab-separated line of a results file, which the Markdown
 * reports read back.
 *
 * @param table the published table, such as {@code filestash-benchmark}
 * @param target who answered: {@code wharf}, {@code nginx}, {@code pyftpdlib}…
 * @param part the table's column or section, such as {@code static}, {@code ls} or
 * {@code PUT 128 B}
 * @param concurrency connections (virtual users) at once
 * @param requests requests sent
 * @param ok requests answered as expected
 * @param failed requests that failed (error status, wrong body, connection error or
 * timeout)
 * @param startMillis epoch milliseconds when the first user started
 * @param endMillis epoch milliseconds when the last user finished
 * @param p50Micros median latency
 * @param p95Micros 95th percentile latency
 * @param p99Micros 99th percentile latency
 * @param serverCpuMicros CPU time the server used during the level (its cgroup, or its
 * process tree), or -1 when unknown (results written before it was measured, or a server
 * without a CPU source)
 * @param loadgenCpuMicros CPU time the load generator used during the level, or -1 when
 * unknown
 */
public record LevelResult(String table, String target, String part, int concurrency, long requests, long ok,
		long failed, long startMillis, long endMillis, long p50Micros, long p95Micros, long p99Micros,
		long serverCpuMicros, long loadgenCpuMicros) {

	/** The header line of a results file. */
	public static final String HEADER = "table\ttarget\tpart\tconcurrency\trequests\tok\tfailed\tstart_ms\tend_ms\tp50_us\tp95_us\tp99_us"
			+ "\tserver_cpu_us\tloadgen_cpu_us";

	/**
	 * A result whose CPU times are unknown.
	 * @param table the published table
	 * @param target who answered
	 * @param part the table's column or section
	 * @param concurrency connections at once
	 * @param requests requests sent
	 * @param ok requests answered as expected
	 * @param failed requests that failed
	 * @param startMillis epoch milliseconds when the first user started
	 * @param endMillis epoch milliseconds when the last user finished
	 * @param p50Micros median latency
	 * @param p95Micros 95th percentile latency
	 * @param p99Micros 99th percentile latency
	 */
	public LevelResult(String table, String target, String part, int concurrency, long requests, long ok, long failed,
			long startMillis, long endMillis, long p50Micros, long p95Micros, long p99Micros) {
		this(table, target, part, concurrency, requests, ok, failed, startMillis, endMillis, p50Micros, p95Micros,
				p99Micros, -1, -1);
	}

	/**
	 * Requests per second over the level's wall-clock window, as {@code ab} reports it.
	 * @return the rate; 0 for an empty window
	 */
	public double requestsPerSecond() {
		long millis = this.endMillis - this.startMillis;
		return (millis <= 0) ? 0 : this.ok * 1000.0 / millis;
	}

	/**
	 * Seconds the level took.
	 * @return wall-clock seconds
	 */
	public double seconds() {
		return (this.endMillis - this.startMillis) / 1000.0;
	}

	/**
	 * The server's CPU time per answered or failed request.
	 * @return microseconds, or -1 when unknown
	 */
	public double serverCpuMicrosPerRequest() {
		return perRequest(this.serverCpuMicros);
	}

	/**
	 * The load generator's CPU time per request.
	 * @return microseconds, or -1 when unknown
	 */
	public double loadgenCpuMicrosPerRequest() {
		return perRequest(this.loadgenCpuMicros);
	}

	private double perRequest(long micros) {
		return (micros < 0 || this.requests <= 0) ? -1 : (double) micros / this.requests;
	}

	String line() {
		return String.join("\t", this.table, this.target, this.part, Integer.toString(this.concurrency),
				Long.toString(this.requests), Long.toString(this.ok), Long.toString(this.failed),
				Long.toString(this.startMillis), Long.toString(this.endMillis), Long.toString(this.p50Micros),
				Long.toString(this.p95Micros), Long.toString(this.p99Micros), Long.toString(this.serverCpuMicros),
				Long.toString(this.loadgenCpuMicros));
	}

	/**
	 * A line of 14 fields, or of the 12 written before the CPU times were measured (those
	 * read as unknown).
	 */
	static LevelResult parse(String line) {
		String[] f = line.split("\t", -1);
		if (f.length != 12 && f.length != 14) {
			throw new IllegalArgumentException(
					"Not a results line (14 tab-separated fields, or 12 without CPU times): " + line);
		}
		return new LevelResult(f[0], f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
				Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]),
				Long.parseLong(f[10]), Long.parseLong(f[11]), (f.length == 14) ? Long.parseLong(f[12]) : -1,
				(f.length == 14) ? Long.parseLong(f[13]) : -1);
	}

	/**
	 * Appends results to a file, writing the header first when the file is new.
	 * @param file the results file
	 * @param results the lines to add
	 */
	public static void append(Path file, List<LevelResult> results) {
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			List<String> lines = new ArrayList<>();
			if (!Files.exists(file) || Files.size(file) == 0) {
				lines.add(HEADER);
			}
			results.forEach((result) -> lines.add(result.line()));
			Files.write(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write " + file, ex);
		}
	}

	/**
	 * Reads every result of a file.
	 * @param file a results file written by {@link #append}
	 * @return the results in file order
	 */
	public static List<LevelResult> read(Path file) {
		try {
			return Files.readAllLines(file, StandardCharsets.UTF_8)
				.stream()
				.filter((line) -> !line.isBlank() && !line.startsWith("table\t"))
				.map(LevelResult::parse)
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + file, ex);
		}
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "%s %s %s c=%d: %d ok, %d failed, %.0f req/s, p99 %.1f ms", this.table,
				this.target, this.part, this.concurrency, this.ok, this.failed, requestsPerSecond(),
				this.p99Micros / 1000.0);
	}

}
