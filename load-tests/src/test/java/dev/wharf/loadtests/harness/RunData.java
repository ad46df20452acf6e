package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.wharf.loadtests.LevelResult;

/**
 * What one {@code run.sh} run left behind: its metadata ({@code meta.properties}), the
 * servers it started ({@code targets.tsv}), the levels ({@code results.tsv}), each
 * server's memory samples ({@code rss-NAME.tsv}: epoch milliseconds, RSS in KiB and,
 * where the server had a memory cgroup, the cgroup's usage in KiB), and for the FTP table
 * ftpbench's outputs ({@code ftpbench-NAME-N.txt}) with their CPU times
 * ({@code ftpbench-cpu.tsv}).
 *
 * <p>
 * Immutable once loaded.
 */
final class RunData {

	final Properties meta = new Properties();

	final List<Target> targets = new ArrayList<>();

	final List<LevelResult> results;

	private final Map<String, List<long[]>> rss = new LinkedHashMap<>();

	final Path dir;

	private final String prefix;

	/**
	 * A server of the run; of a server started several times
	 * ({@code run.sh socko --runs N}), all its runs.
	 *
	 * @param name its name in the results, such as {@code wharf-p96} or {@code nginx}
	 * @param profile the JVM profile, or {@code -}
	 * @param memory the memory limit, such as {@code 96M}
	 * @param cpus the CPU quota
	 * @param serverCpus the cores it was pinned to
	 * @param loadgenCpus the cores the load generator was pinned to
	 * @param startSeconds start-up as the server logged it (each run's, comma-separated),
	 * or empty
	 * @param peakRssKb the highest RSS sampled (the process and its children)
	 * @param peakCgroupKb the memory cgroup's peak (RSS plus page cache charged to it),
	 * or 0
	 * @param flags the JVM flags and environment, or the peer's version and settings
	 * @param oomKills processes the kernel killed for memory in its cgroup (over all
	 * runs)
	 */
	record Target(String name, String profile, String memory, String cpus, String serverCpus, String loadgenCpus,
			String startSeconds, long peakRssKb, long peakCgroupKb, String flags, long oomKills) {

		boolean isWharf() {
			return isWharf(this.name);
		}

		static boolean isWharf(String name) {
			return name.startsWith("wharf");
		}

		/**
		 * This server over its runs so far and one more: each run's start-up, the highest
		 * peaks, all OOM kills.
		 */
		Target plus(Target next) {
			String start = Stream.of(this.startSeconds, next.startSeconds)
				.filter((s) -> !s.isBlank())
				.collect(Collectors.joining(", "));
			return new Target(this.name, this.profile, this.memory, this.cpus, this.serverCpus, this.loadgenCpus, start,
					Math.max(this.peakRssKb, next.peakRssKb), Math.max(this.peakCgroupKb, next.peakCgroupKb),
					this.flags, this.oomKills + next.oomKills);
		}

	}

	/**
	 * Loads a run.
	 * @param dir the run folder, or {@code docs/benchmarks/results}
	 * @param prefix the file-name prefix: empty in a run folder, {@code TABLE.} in the
	 * docs' copy
	 */
	RunData(Path dir, String prefix) {
		this.dir = dir;
		this.prefix = prefix;
		try {
			Path meta = dir.resolve(prefix + "meta.properties");
			if (Files.exists(meta)) {
				try (Reader reader = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
					this.meta.load(reader);
				}
			}
			Path targets = findFile(dir, prefix + "targets.tsv");
			if (targets != null) {
				Map<String, Target> byName = new LinkedHashMap<>(); // one line a run: one
																	// target a name
				for (String line : Files.readAllLines(targets, StandardCharsets.UTF_8)) {
					String[] f = line.split("\t", -1);
					if (f.length >= 10 && !f[0].equals("name")) {
						byName.merge(f[0], new Target(f[0], f[1], f[2], f[3], f[4], f[5], f[6], parse(f[7]),
								parse(f[8]), f[9], (f.length > 10) ? parse(f[10]) : 0), Target::plus);
					}
				}
				this.targets.addAll(byName.values());
			}
			Path results = findFile(dir, prefix + "results.tsv");
			this.results = (results != null) ? LevelResult.read(results) : List.of();
			for (Target target : this.targets) {
				Path samples = dir.resolve(prefix + "rss-" + target.name() + ".tsv");
				List<long[]> points = new ArrayList<>();
				if (Files.exists(samples)) {
					for (String line : Files.readAllLines(samples, StandardCharsets.UTF_8)) {
						String[] f = line.trim().split("\\s+");
						// A sample of 0 is the sampler catching the server as it exited.
						if (f.length >= 2 && f[0].matches("[0-9]+") && f[1].matches("[0-9]+") && !f[1].equals("0")) {
							long cgroup = (f.length > 2 && f[2].matches("[0-9]+")) ? Long.parseLong(f[2]) : -1;
							points.add(new long[] { Long.parseLong(f[0]), Long.parseLong(f[1]), cgroup });
						}
					}
				}
				this.rss.put(target.name(), points);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path findFile(Path dir, String name) {
		Path file = dir.resolve(name);
		return Files.exists(file) ? file : null;
	}

	private static long parse(String value) {
		try {
			return value.isBlank() ? 0 : Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	String meta(String key) {
		return this.meta.getProperty(key, "");
	}

	Optional<Target> target(String name) {
		return this.targets.stream().filter((t) -> t.name().equals(name)).findFirst();
	}

	/**
	 * Target names in the order they ran: from targets.tsv, then any only in the results.
	 */
	List<String> targetNames() {
		List<String> names = new ArrayList<>(this.targets.stream().map(Target::name).toList());
		this.results.stream().map(LevelResult::target).filter((n) -> !names.contains(n)).distinct().forEach(names::add);
		return names;
	}

	List<LevelResult> results(String target) {
		return this.results.stream().filter((r) -> r.target().equals(target)).toList();
	}

	/** Every run of a level, or empty when it did not run. */
	Optional<LevelRuns> level(String target, String part, int concurrency) {
		List<LevelResult> runs = results(target, part, concurrency);
		return runs.isEmpty() ? Optional.empty() : Optional.of(new LevelRuns(runs));
	}

	/** Every level of the run with all its runs, in the order each first ran. */
	List<LevelRuns> levels() {
		Map<List<Object>, List<LevelResult>> byLevel = new LinkedHashMap<>();
		for (LevelResult r : this.results) {
			byLevel.computeIfAbsent(List.of(r.target(), r.part(), r.concurrency()), (k) -> new ArrayList<>()).add(r);
		}
		return byLevel.values().stream().map(LevelRuns::new).toList();
	}

	/** The most runs any level had: the run's {@code --runs}, or 1. */
	int runs() {
		return levels().stream().mapToInt((l) -> l.runs().size()).max().orElse(1);
	}

	/** Every result of a level, one a run, in the order they ran. */
	List<LevelResult> results(String target, String part, int concurrency) {
		return this.results.stream()
			.filter((r) -> r.target().equals(target) && r.part().equals(part) && r.concurrency() == concurrency)
			.toList();
	}

	/**
	 * The median of several runs, as the reports take it: the middle one by a value, of
	 * an even count the upper one.
	 * @param <T> a run
	 * @param runs the runs
	 * @param value the value they are ranked by
	 * @return the median run, or empty without runs
	 */
	static <T> Optional<T> median(List<T> runs, ToDoubleFunction<T> value) {
		return runs.stream().sorted(Comparator.comparingDouble(value)).skip(runs.size() / 2).findFirst();
	}

	/**
	 * The highest RSS sampled while a level ran.
	 * @param level the level
	 * @return KiB, or 0 without samples
	 */
	long peakRssKb(LevelResult level) {
		return this.rss.getOrDefault(level.target(), List.of())
			.stream()
			.filter((p) -> p[0] >= level.startMillis() - 250 && p[0] <= level.endMillis() + 250)
			.mapToLong((p) -> p[1])
			.max()
			.orElse(0);
	}

	/**
	 * A server's memory samples, one list per start of it (a gap of more than
	 * {@value #RUN_GAP_MILLIS} ms between two samples: the sampler takes one every 250 ms
	 * while the server runs).
	 * @param target the server
	 * @return per run, its samples {epoch milliseconds, RSS KiB, cgroup KiB or -1}
	 */
	List<List<long[]>> memoryRuns(String target) {
		List<List<long[]>> runs = new ArrayList<>();
		long last = Long.MIN_VALUE;
		for (long[] point : this.rss.getOrDefault(target, List.of())) {
			if (runs.isEmpty() || point[0] - last > RUN_GAP_MILLIS) {
				runs.add(new ArrayList<>());
			}
			runs.get(runs.size() - 1).add(point);
			last = point[0];
		}
		return runs;
	}

	static final long RUN_GAP_MILLIS = 2000;

	/**
	 * The rows of every ftpbench run of one server, parsed: ftpbench prints "name value
	 * unit memory".
	 * @param target the server
	 * @return per run, its rows in ftpbench's order
	 */
	List<List<FtpbenchRow>> ftpbenchRows(String target) {
		List<List<FtpbenchRow>> runs = new ArrayList<>();
		for (List<String> lines : ftpbench(target)) {
			List<FtpbenchRow> rows = new ArrayList<>();
			for (String line : lines) {
				Matcher m = FTPBENCH.matcher(line);
				if (m.matches()) {
					rows.add(new FtpbenchRow(m.group(1).trim(), Double.parseDouble(m.group(2)), m.group(3),
							(m.group(4) != null) ? m.group(4) : ""));
				}
			}
			runs.add(rows);
		}
		return runs;
	}

	static final Pattern FTPBENCH = Pattern.compile("^(.+?)\\s{2,}([0-9.]+) (MB/sec|secs)\\s*(\\S+)?\\s*$");

	/**
	 * One row of ftpbench's output.
	 *
	 * @param row what it measured, such as {@code STOR (client -> server)}
	 * @param value the figure
	 * @param unit {@code MB/sec} or {@code secs}
	 * @param memory the server's memory after the row as ftpbench printed it, or empty
	 */
	record FtpbenchRow(String row, double value, String unit, String memory) {

		boolean isTime() {
			return this.unit.equals("secs");
		}

	}

	/**
	 * The CPU times of each ftpbench run against a server ({@code ftpbench-cpu.tsv}:
	 * target, run, the server's CPU microseconds, ftpbench's, and the run's wall
	 * milliseconds).
	 * @param target the server
	 * @return per run {server µs, ftpbench µs, wall ms}, -1 where unknown; empty for runs
	 * made before they were measured
	 */
	List<long[]> ftpbenchCpu(String target) {
		Path file = this.dir.resolve(this.prefix + "ftpbench-cpu.tsv");
		List<long[]> runs = new ArrayList<>();
		if (!Files.exists(file)) {
			return runs;
		}
		try {
			for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
				String[] f = line.split("\t", -1);
				if (f.length >= 5 && f[0].equals(target)) {
					runs.add(new long[] { number(f[2]), number(f[3]), number(f[4]) });
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return runs;
	}

	private static long number(String value) {
		return value.trim().matches("[0-9]+") ? Long.parseLong(value.trim()) : -1;
	}

	/**
	 * The compressed Gatling reports of the published run, as a link from
	 * {@code docs/benchmarks}.
	 * @return {@code results/gatling/TABLE.tar.xz}, or null when there is none (a run
	 * folder, or no archive)
	 */
	String gatlingArchive() {
		String table = meta("table");
		if (this.prefix.isEmpty() || table.isBlank()
				|| !Files.exists(this.dir.resolve("gatling/" + table + ".tar.xz"))) {
			return null;
		}
		return this.dir.getFileName() + "/gatling/" + table + ".tar.xz";
	}

	/** Lines of the raw ftpbench outputs of one server, one list per run. */
	List<List<String>> ftpbench(String target) {
		List<List<String>> runs = new ArrayList<>();
		for (int i = 1; i < 100; i++) {
			Path file = this.dir.resolve(this.prefix + "ftpbench-" + target + "-" + i + ".txt");
			if (!Files.exists(file)) {
				break;
			}
			try {
				runs.add(Files.readAllLines(file, StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return runs;
	}

}
