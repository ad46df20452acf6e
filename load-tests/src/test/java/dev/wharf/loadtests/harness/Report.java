package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.wharf.loadtests.LevelResult;
import dev.wharf.loadtests.simulations.SockoSimulation;

/**
 * Writes a run's Markdown report, each table in the shape the original published it, with the machine, JDK,
 * profile, flags and command that produced it; or ({@code index}) the benchmark index. Called by
 * {@code load-tests/run.sh}, which publishes a run (see {@link Publication}) with
 * <pre>
 * Report TABLE RUN_FOLDER docs/benchmarks REPOSITORY_ROOT
 * Report index docs/benchmarks
 * </pre>
 */
public final class Report {

	static final Pattern FTPBENCH = Pattern
		.compile("^(.+?)\\s{2,}([0-9.]+) (MB/sec|secs)\\s*(\\S+)?\\s*$");

	private final RunData run;

	private final StringBuilder out = new StringBuilder();

	Report(RunData run) {
		this.run = run;
	}

	/**
	 * Publishes a run (its results, its report and the index), or writes the index alone.
	 * @param args {@code TABLE RUN_FOLDER DOCS_FOLDER REPOSITORY_ROOT} or {@code index DOCS_FOLDER}
	 * @throws IOException when a file cannot be read or written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length == 2 && args[0].equals("index")) {
			Index.write(Path.of(args[1]));
			return;
		}
		if (args.length != 4) {
			System.err.println("usage: Report TABLE RUN_FOLDER DOCS_FOLDER REPOSITORY_ROOT | Report index DOCS_FOLDER");
			System.exit(2);
		}
		Publication.publish(args[0], Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
	}

	String render(String table) {
		switch (table) {
			case "filestash-benchmark" -> filestashBenchmark();
			case "filestash-loadtest" -> filestashLoadTest();
			case "rbcs" -> rbcs();
			case "socko" -> socko();
			case "pyftpdlib" -> pyftpdlib();
			case "profiles" -> profiles();
			case "ftp-soak" -> ftpSoak();
			case "replicas" -> replicas();
			default -> throw new IllegalArgumentException("Unknown table: " + table);
		}
		return this.out.toString();
	}

	// ------------------------------------------------------------------------------------------ common parts

	private void header(String title, String original, String how) {
		this.out.append("# ").append(title).append("\n\n");
		String note = this.run.meta("note");
		if (!note.isBlank()) {
			this.out.append("> **").append(note).append("**\n\n");
		}
		this.out.append("Original: ").append(original).append(".\n\n").append(how).append("\n\n");
		Markdown setup = new Markdown("", "");
		setup.row("Command", "`" + this.run.meta("command") + "`");
		setup.row("Date", this.run.meta("date"));
		setup.row("Machine", this.run.meta("machine"));
		setup.row("Kernel", this.run.meta("kernel"));
		setup.row("JDK (Wharf)", this.run.meta("jdk"));
		setup.row("Commit", this.run.meta("commit"));
		setup.row("Limits", "cgroup " + this.run.meta("cgroup") + " (memory limit and CPU quota per server below)");
		setup.row("Load generator", this.run.meta("loadgen"));
		if (!this.run.meta("scale").equals("1") && !this.run.meta("scale").isBlank()) {
			setup.row("Scale", "request counts × " + this.run.meta("scale") + " (a shortened run)");
		}
		this.out.append(setup).append('\n');
		Markdown servers = new Markdown("server", "profile", "memory limit", "CPU quota", "server cores",
				"load generator cores", "start-up", "peak RSS", "peak cgroup memory", "OOM kills", "flags");
		for (RunData.Target t : this.run.targets) {
			String start = t.startSeconds().isBlank() ? "–"
					: t.startSeconds().matches("[0-9.]+(, [0-9.]+)*") ? t.startSeconds() + " s" : t.startSeconds();
			servers.row(t.name(), t.profile(), t.memory(), t.cpus(), t.serverCpus(), t.loadgenCpus(), start,
					Markdown.megabytes(t.peakRssKb()), Markdown.megabytes(t.peakCgroupKb()), t.oomKills(),
					"`" + t.flags().trim() + "`");
		}
		this.out.append(servers).append('\n');
		String skipped = this.run.meta("skipped");
		if (!skipped.isBlank()) {
			this.out.append("Not measured: ").append(skipped).append(".\n\n");
		}
		this.out.append("Peak RSS counts the server process and its children, sampled every 250 ms; the cgroup peak "
				+ "also counts page cache charged to the server. Requests per second are per level: answered requests "
				+ "divided by the level's wall time (first connection to last answer), as ab reports them.\n\n");
	}

	/** A table cell as the originals wrote it: "N req/s", "failed", with the failures when some failed. */
	static String cell(Optional<LevelResult> result) {
		if (result.isEmpty()) {
			return "not run";
		}
		LevelResult r = result.get();
		if (r.ok() == 0) {
			return "failed";
		}
		String rate = Markdown.rate(r.requestsPerSecond()) + " req/s";
		return (r.failed() > 0) ? rate + " (" + r.failed() + " failed)" : rate;
	}

	/**
	 * The range of several runs' values, as the tables with medians print it after the median.
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

	private static double rate(Optional<LevelResult> result) {
		return result.filter((r) -> r.ok() > 0 && r.failed() == 0).map(LevelResult::requestsPerSecond).orElse(0.0);
	}

	// ------------------------------------------------------------------------------------------ Filestash

	private void filestashBenchmark() {
		header("Filestash \"Benchmarking results\", reproduced", Originals.FILESTASH_BENCHMARK,
				"Filestash ran in docker containers of 32 MB/1 core, 128 MB/2 cores and 512 MB/4 cores; Wharf runs "
						+ "once per JVM profile (p96, p128, p512: 32 MB is out of reach for HotSpot, see "
						+ "platform-app/src/main/jvm/README.md), with its file manager alone, as Filestash is one "
						+ "(load-tests/config/wharf-bench-filemanager-only.yaml: no FTP, static sites or build cache). "
						+ "Requests as in the original ab commands: `ab -k -c N "
						+ "-n 1000` for `/`, `/api/files/ls?path=…` (over SFTP to OpenSSH on the same machine) and "
						+ "`/api/files/cat?path=…png&thumbnail=true`, the API calls with `Cookie: auth=…` and "
						+ "`X-Requested-With: XmlHttpRequest`. (×N) is Wharf's rate divided by Filestash's published "
						+ "one: different machines, so read it as an order of magnitude. "
						+ "A profile whose cells say failed or not run did not fit its budget: its OOM kills are in the "
						+ "servers table below. Why, measured: the JVM alone commits about 70 MB of class metadata, code, "
						+ "symbols and class-data archive before the heap (p128's 40 MB) and the threads, so the file "
						+ "manager is killed under 96 MB and 128 MB; the committed memory by kind and the budgets that "
						+ "work (the file manager alone in 160 MB, the whole application in 192 MB) are in "
						+ "platform-app/src/main/jvm/README.md.");
		for (String target : this.run.targetNames()) {
			String profile = this.run.target(target).map(RunData.Target::profile).orElse(target);
			int[][] original = Originals.FILESTASH_GRID.get(profile);
			this.out.append("## ").append(target).append(" (compare: ")
				.append(Originals.FILESTASH_SIZE.getOrDefault(profile, "–"))
				.append(")\n\n");
			Markdown grid = new Markdown("Level of concurrency", "Static file", "List files", "Transcode image");
			for (int i = 0; i < Originals.GRID.size(); i++) {
				int c = Originals.GRID.get(i);
				List<String> cells = new ArrayList<>(List.of(Integer.toString(c)));
				String[] parts = { "static", "ls", "thumbnail" };
				for (int p = 0; p < parts.length; p++) {
					Optional<LevelResult> r = this.run.result(target, parts[p], c);
					String ratio = (original != null && original[i][p] > 0) ? Markdown.ratio(rate(r), original[i][p]) : "–";
					cells.add(cell(r) + " (" + ratio + ")");
				}
				grid.row(cells.toArray());
			}
			this.out.append(grid).append('\n');
			Markdown root = new Markdown("ab -k -c N -n 50000 /", "Failed requests", "Requests per second", "50%",
					"99%", "peak RSS", "Filestash req/s", "Filestash peak RAM");
			for (int[] o : Originals.FILESTASH_ROOT) {
				Optional<LevelResult> r = this.run.result(target, "root", o[0]);
				root.row("c=" + o[0], r.map((x) -> Long.toString(x.failed())).orElse("–"), cell(r),
						r.map((x) -> Markdown.millis(x.p50Micros())).orElse("–"),
						r.map((x) -> Markdown.millis(x.p99Micros())).orElse("–"),
						r.map((x) -> Markdown.megabytes(this.run.peakRssKb(x))).orElse("–"), o[1],
						(o[2] > 0) ? o[2] + " MB" : "–");
			}
			Optional<LevelResult> ls = this.run.result(target, "ls-1000", 1000);
			root.row("ls over SFTP, c=1000 n=100000", ls.map((x) -> Long.toString(x.failed())).orElse("–"), cell(ls),
					ls.map((x) -> Markdown.millis(x.p50Micros())).orElse("–"),
					ls.map((x) -> Markdown.millis(x.p99Micros())).orElse("–"),
					ls.map((x) -> Markdown.megabytes(this.run.peakRssKb(x))).orElse("–"),
					Originals.FILESTASH_LS_1000[0], Originals.FILESTASH_LS_1000[1] + " MB");
			this.out.append(root).append('\n');
		}
	}

	private void filestashLoadTest() {
		header("Filestash \"Load testing results\", reproduced", Originals.FILESTASH_LOADTEST,
				"Wharf runs its file manager alone, as Filestash is one (load-tests/config/"
						+ "wharf-bench-filemanager-only.yaml). Requests as in the original ab commands (`ab -k`; the "
						+ "`ls` calls with `Cookie: auth=…` and "
						+ "`X-Requested-With: XmlHttpRequest`). Filestash's static page was `/login`; Wharf's is `/` "
						+ "(the file manager's page). Filestash's in-memory backend was `blackhole` (six fake entries); "
						+ "Wharf lists six files on a `memory` mount.");
		for (String target : this.run.targetNames()) {
			this.out.append("## ").append(target).append("\n\n");
			Markdown table = new Markdown("Test", "Command", "Complete requests", "Failed requests",
					"Requests per second", "Time per request (mean)", "50%", "99%", "peak RSS", "Filestash req/s",
					"Wharf ÷ Filestash");
			for (Object[] o : Originals.FILESTASH_LOADTEST_ROWS) {
				String part = (String) o[0];
				int c = (Integer) o[1];
				Optional<LevelResult> r = this.run.result(target, part, c);
				String path = part.equals("static") ? "/" : "/api/files/ls?path=%2F…";
				table.row(part, "`ab -k -c " + c + " -n " + o[2] + " " + path + "`",
						r.map((x) -> Markdown.group(x.requests())).orElse("–"),
						r.map((x) -> Long.toString(x.failed())).orElse("–"), cell(r),
						r.filter((x) -> x.ok() > 0)
							.map((x) -> String.format(Locale.ROOT, "%.3f ms", c * 1000.0 / x.requestsPerSecond()))
							.orElse("–"),
						r.map((x) -> Markdown.millis(x.p50Micros())).orElse("–"),
						r.map((x) -> Markdown.millis(x.p99Micros())).orElse("–"),
						r.map((x) -> Markdown.megabytes(this.run.peakRssKb(x))).orElse("–"),
						Markdown.rate((Double) o[3]) + (((Integer) o[4] > 0) ? " (" + o[4] + " failed)" : ""),
						Markdown.ratio(rate(r), (Double) o[3]));
			}
			this.out.append(table).append('\n');
		}
	}

	// ------------------------------------------------------------------------------------------ RBCS

	private void rbcs() {
		header("RBCS performance benchmarks, reproduced", Originals.RBCS,
				"Method as `rbcs-cli client benchmark`: per size and connection count, PUT every entry under a new "
						+ "32-hex-digit key, then GET each back and compare it; req/s = entries ÷ wall time of the "
						+ "phase, after a warm-up of 4,000 PUTs and GETs of 4 KiB that is not counted (a JVM runs its "
						+ "first thousands of requests mostly interpreted). Authentication (Basic) on, TLS and "
						+ "compression off. The peer is nginx storing PUTs "
						+ "on disk (WebDAV) under the same CPU quota and memory limit. RBCS's columns are its "
						+ "published rows for the same backend at CPU quota 1.00, and at 3.50 for Wharf's 2-CPU rows.");
		Markdown table = new Markdown("Cache backend", "CPU quota", "Memory quota", "Request size (b)",
				"Client connections", "PUT (req/s)", "GET (req/s)", "failed", "RBCS PUT (req/s)", "RBCS GET (req/s)");
		for (String target : this.run.targetNames()) {
			RunData.Target t = this.run.target(target).orElse(null);
			String backend = backendOf(target);
			String cpus = (t != null) ? t.cpus() : "–";
			Map<String, LevelResult[]> rows = new LinkedHashMap<>();
			if (t != null && t.isWharf()) {
				// Every published row of this backend, measured or not, so a skipped run still shows the original.
				double quota = cpus.startsWith("1") ? 1.0 : 3.5;
				for (Object[] o : Originals.RBCS_ROWS) {
					if (o[0].equals(backend) && (Double) o[1] == quota) {
						rows.put(dev.wharf.loadtests.Parameters.byteLabel((Integer) o[2]) + "|" + o[3], new LevelResult[2]);
					}
				}
			}
			for (LevelResult r : this.run.results(target)) {
				String[] kind = r.part().split(" ", 2);
				LevelResult[] pair = rows.computeIfAbsent(kind[1] + "|" + r.concurrency(), (k) -> new LevelResult[2]);
				pair[kind[0].equals("PUT") ? 0 : 1] = r;
			}
			for (Map.Entry<String, LevelResult[]> row : rows.entrySet()) {
				String[] key = row.getKey().split("\\|");
				int size = bytes(key[0]);
				int connections = Integer.parseInt(key[1]);
				LevelResult put = row.getValue()[0];
				LevelResult get = row.getValue()[1];
				Object[] original = rbcsOriginal(backend, cpus, size, connections);
				table.row(backend, cpus, (t != null) ? t.memory() : "–", size, connections,
						(put != null) ? Markdown.rate(put.requestsPerSecond()) : "–",
						(get != null) ? Markdown.rate(get.requestsPerSecond()) : "–",
						(put == null && get == null) ? "not run"
								: Long.toString(((put != null) ? put.failed() : 0) + ((get != null) ? get.failed() : 0)),
						(original != null) ? original[4] : "–", (original != null) ? original[5] : "–");
			}
		}
		this.out.append(table).append('\n');
	}

	static String backendOf(String target) {
		if (target.startsWith("nginx")) {
			return "nginx (WebDAV PUT)";
		}
		for (String backend : List.of("memory", "local", "memcached")) {
			if (target.contains("-" + backend + "-")) {
				return backend;
			}
		}
		return target;
	}

	static Object[] rbcsOriginal(String backend, String cpus, int size, int connections) {
		double quota = cpus.startsWith("1") ? 1.0 : 3.5;
		for (Object[] o : Originals.RBCS_ROWS) {
			if (o[0].equals(backend) && (Double) o[1] == quota && (Integer) o[2] == size && (Integer) o[3] == connections) {
				return o;
			}
		}
		return null;
	}

	static int bytes(String label) {
		String[] f = label.trim().split(" ");
		int n = Integer.parseInt(f[0]);
		return switch (f[1]) {
			case "KiB" -> n * 1024;
			case "MiB" -> n * 1024 * 1024;
			default -> n;
		};
	}

	// ------------------------------------------------------------------------------------------ Socko

	private void socko() {
		boolean keepAlive = !this.run.meta("keepalive").equals("false");
		long runs = this.run.results.stream()
			.collect(Collectors.groupingBy((r) -> List.of(r.target(), r.part(), r.concurrency()), Collectors.counting()))
			.values()
			.stream()
			.mapToLong(Long::longValue)
			.max()
			.orElse(1);
		header("Socko's static file benchmark, reproduced", Originals.SOCKO,
				"Socko's tests used `ab -nM -c100` without keep-alive; this run "
						+ (keepAlive ? "keeps connections alive (module-static's target is set with keep-alive clients, `ab -k` and wrk; `--no-keepalive` reproduces Socko's exactly)"
								: "opens a new connection per request, like Socko's ab")
						+ ". Before the levels, " + Markdown.group(SockoSimulation.DEFAULT_WARM_UP)
						+ " requests of each file are sent and not counted (a JVM compiles each "
						+ "path it serves during its first thousands of requests; Socko measured servers already running). "
						+ "nginx serves the same folder under the same CPU quota and memory limit in the same run, "
						+ "with the same warm-up."
						+ ((runs > 1) ? " The figures are medians of " + runs + " alternating runs (Wharf, nginx, Wharf, …): "
								+ "each row is the run with the median requests per second, with the range over the runs "
								+ "in brackets; failed requests are summed over the runs." : ""));
		int test = 1;
		for (Object[] o : Originals.SOCKO_ROWS) {
			int size = (Integer) o[0];
			int requests = (Integer) o[1];
			String label = dev.wharf.loadtests.Parameters.byteLabel(size);
			this.out.append("## Test #").append(test++).append(" - ").append(label).append(" static file, 100 concurrent users, ")
				.append(Markdown.group(requests)).append(" requests\n\n");
			Markdown table = new Markdown("Web Server", "Time taken for tests", "Requests per second (mean)",
					"Failed requests", "99%");
			for (String target : this.run.targetNames()) {
				List<LevelResult> levels = this.run.results(target, label, 100);
				Optional<LevelResult> r = RunData.median(levels, LevelResult::requestsPerSecond);
				table.row(target + " (this run)", r.map((x) -> String.format(Locale.ROOT, "%.3f seconds", x.seconds())).orElse("–"),
						cell(r) + range(levels, LevelResult::requestsPerSecond, Markdown::rate),
						r.map((x) -> Long.toString(levels.stream().mapToLong(LevelResult::failed).sum())).orElse("–"),
						r.map((x) -> Markdown.millis(x.p99Micros())).orElse("–"));
			}
			for (Object[] server : (Object[][]) o[2]) {
				table.row(server[0] + " (published, 2012)", server[1] + " seconds",
						String.format(Locale.ROOT, "%.2f [#/sec]", (Double) server[2]), "–", "–");
			}
			this.out.append(table).append('\n');
		}
	}

	// ------------------------------------------------------------------------------------------ pyftpdlib

	private void pyftpdlib() {
		header("pyftpdlib's FTP benchmark, reproduced", Originals.PYFTPDLIB,
				"pyftpdlib's own `ftpbench` (from the pyftpdlib 2.2.0 wheel; psutil < 7 for `-k`) run as published, "
						+ "`ftpbench -u USER -p PASSWORD -b all -n 300 -s 10M -t 60 -k PID`, against each server in turn "
						+ "under the same CPU quota and memory limit; the medians of the runs (range in brackets). "
						+ "Memory is ftpbench's own (rss - shared of the server and its direct children). Both `RETR` rows "
						+ "download the file the `STOR` row before them has just written for one second (over a GB at these "
						+ "rates): where that is more than the memory limit holds as page cache, they read it back from disk, "
						+ "for every server alike (docs/benchmarks/ftp.md).");
		List<String> targets = this.run.targetNames();
		Map<String, Map<String, List<String[]>>> values = new LinkedHashMap<>();
		List<String> rows = new ArrayList<>();
		for (String target : targets) {
			Map<String, List<String[]>> byRow = new LinkedHashMap<>();
			for (List<String> lines : this.run.ftpbench(target)) {
				for (String line : lines) {
					Matcher m = FTPBENCH.matcher(line);
					if (m.matches()) {
						String row = m.group(1).trim();
						if (!rows.contains(row)) {
							rows.add(row);
						}
						byRow.computeIfAbsent(row, (k) -> new ArrayList<>())
							.add(new String[] { m.group(2), m.group(3), (m.group(4) != null) ? m.group(4) : "" });
					}
				}
			}
			values.put(target, byRow);
		}
		List<String> header = new ArrayList<>(List.of("benchmark type"));
		header.addAll(targets);
		header.addAll(List.of("pyftpdlib 1.0.0 (published)", "proftpd 1.3.4 (published)", "vsftpd 2.3.5 (published)"));
		Markdown speed = new Markdown(header.toArray(String[]::new));
		Markdown memory = new Markdown(header.subList(0, targets.size() + 1).toArray(String[]::new));
		for (String row : rows) {
			List<Object> cells = new ArrayList<>(List.of(row));
			List<Object> memoryCells = new ArrayList<>(List.of(row));
			for (String target : targets) {
				List<String[]> samples = values.get(target).getOrDefault(row, List.of());
				cells.add(median(samples));
				memoryCells.add(samples.isEmpty() ? "–" : samples.get(samples.size() / 2)[2]);
			}
			Object[] original = null;
			for (Object[] o : Originals.PYFTPDLIB_ROWS) {
				if (o[0].equals(row)) {
					original = o;
				}
			}
			cells.addAll((original != null) ? List.of(original[1], original[2], original[3]) : List.of("–", "–", "–"));
			speed.row(cells.toArray());
			memory.row(memoryCells.toArray());
		}
		this.out.append("## Speed\n\n").append(speed).append("\n## Memory\n\n").append(memory).append('\n')
			.append("Published memory with 300 clients connected: pyftpdlib ").append(Originals.PYFTPDLIB_MEMORY_300[0])
			.append(", proftpd ").append(Originals.PYFTPDLIB_MEMORY_300[1]).append(", vsftpd ")
			.append(Originals.PYFTPDLIB_MEMORY_300[2]).append(".\n");
	}

	/** ftpbench's runs of a row ({value, unit, memory}): "median unit [lowest–highest]", or "–" without runs. */
	static String median(List<String[]> samples) {
		ToDoubleFunction<String[]> value = (s) -> Double.parseDouble(s[0]);
		DoubleFunction<String> format = (v) -> String.format(Locale.ROOT, "%.2f", v);
		return RunData.median(samples, value)
			.map((m) -> format.apply(value.applyAsDouble(m)) + " " + samples.get(0)[1] + range(samples, value, format))
			.orElse("–");
	}

	// ------------------------------------------------------------------------------------------ profiles, FTP soak

	private void profiles() {
		header("JVM profiles: start-up, memory and throughput under their limits", "none (Wharf's own measurement)",
				"Each profile's options and environment from `platform-app/src/main/jvm/`, under its memory limit and "
						+ "CPU quota; `GET /actuator/health` (and the static files with `--with-static`) with `ab -k`-style "
						+ "levels.");
		Markdown table = new Markdown("server", "part", "concurrency", "requests", "failed", "req/s", "50%", "99%",
				"peak RSS during the level");
		for (String target : this.run.targetNames()) {
			for (LevelResult r : this.run.results(target)) {
				table.row(target, r.part(), r.concurrency(), Markdown.group(r.requests()), r.failed(),
						Markdown.rate(r.requestsPerSecond()), Markdown.millis(r.p50Micros()), Markdown.millis(r.p99Micros()),
						Markdown.megabytes(this.run.peakRssKb(r)));
			}
		}
		this.out.append(table).append('\n');
	}

	private void ftpSoak() {
		header("FTP soak (Wharf's own FTP load driver)", "none (Gatling has no FTP; pyftpdlib's table is `run.sh pyftpdlib`)",
				"`dev.wharf.loadtests.ftp.FtpLoadDriver`: clients log in at once, then each repeats STOR, RETR (length "
						+ "checked) and LIST of its own file until the time is up.");
		Markdown table = new Markdown("server", "operation", "clients", "operations", "failed", "per second", "50%", "99%");
		for (String target : this.run.targetNames()) {
			for (LevelResult r : this.run.results(target)) {
				table.row(target, r.part(), r.concurrency(), Markdown.group(r.requests()), r.failed(),
						Markdown.rate(r.requestsPerSecond()), Markdown.millis(r.p50Micros()), Markdown.millis(r.p99Micros()));
			}
		}
		this.out.append(table).append('\n');
	}

	private void replicas() {
		header("Replicas behind a balancer", "none (Wharf's own measurement)",
				"Three replicas of Wharf sharing one folder and one Redis (`wharf.state.store: redis`) behind haproxy in "
						+ "round-robin, each request on its own (no stickiness), against one replica behind the same haproxy: "
						+ "`ls` with one session cookie taken once, build cache PUT then GET of 4 KiB entries (each key "
						+ "written through one replica and read through any), then a mixed level of the three in which one "
						+ "of the three replicas is killed with SIGKILL half-way (its failed requests are what a crashed "
						+ "replica costs; haproxy sends nothing more to it once two readiness checks, 500 ms apart, fail). "
						+ "Last, `ls` of a memory mount with wrk and a session cookie: one Wharf with the local store, then "
						+ "one with the sessions in Redis.");
		Markdown table = new Markdown("server", "part", "concurrency", "requests", "failed", "req/s", "50%", "99%");
		for (String target : this.run.targetNames()) {
			for (LevelResult r : this.run.results(target)) {
				table.row(target, r.part(), r.concurrency(), Markdown.group(r.requests()), r.failed(),
						Markdown.rate(r.requestsPerSecond()), Markdown.millis(r.p50Micros()), Markdown.millis(r.p99Micros()));
			}
		}
		this.out.append(table).append('\n');
		String cpu = this.run.meta("cpu");
		if (!cpu.isBlank()) {
			this.out.append("CPU (user and system seconds, during the Gatling levels): ").append(cpu).append(".\n");
		}
	}

}
