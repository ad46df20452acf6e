package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

import dev.wharf.loadtests.LevelResult;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.simulations.FilestashBenchmarkSimulation;
import dev.wharf.loadtests.simulations.SockoSimulation;

/**
 * Writes a run's Markdown report, each table in the shape the original published it, with
 * the machine, JDK, profile, flags and command that produced it, the peers measured in
 * the same run beside Wharf, every level's medians, ranges and CPU per request, and links
 * to the run's plots and Gatling reports; or ({@code index}) the benchmark index; or
 * ({@code plots}) every published table's plots and report again from its committed
 * results. Called by {@code load-tests/run.sh}, which publishes a run (see
 * {@link Publication}) with <pre>
 * Report TABLE RUN_FOLDER docs/benchmarks REPOSITORY_ROOT
 * Report index docs/benchmarks
 * Report plots docs/benchmarks
 * </pre>
 */
public final class Report {

	/** The tables {@code run.sh} reproduces, in the index's order. */
	static final List<String> TABLES = List.of("filestash-benchmark", "filestash-loadtest", "rbcs", "socko",
			"pyftpdlib", "profiles");

	private final RunData run;

	private final List<Plots.Figure> plots;

	private final StringBuilder out = new StringBuilder();

	Report(RunData run) {
		this(run, List.of());
	}

	Report(RunData run, List<Plots.Figure> plots) {
		this.run = run;
		this.plots = plots;
	}

	/**
	 * Publishes a run (its results, plots, report and the index), writes the index alone,
	 * or makes every published table's plots and report again from its committed results.
	 * @param args {@code TABLE RUN_FOLDER DOCS_FOLDER REPOSITORY_ROOT},
	 * {@code index DOCS_FOLDER} or {@code plots DOCS_FOLDER}
	 * @throws IOException when a file cannot be read or written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length == 2 && args[0].equals("index")) {
			Index.write(Path.of(args[1]));
			return;
		}
		if (args.length == 2 && args[0].equals("plots")) {
			for (String table : TABLES) {
				if (Publication.republish(table, Path.of(args[1]))) {
					System.out.println("== " + table + ": plots and report made again from its results");
				}
			}
			Index.write(Path.of(args[1]));
			return;
		}
		if (args.length != 4) {
			System.err.println("usage: Report TABLE RUN_FOLDER DOCS_FOLDER REPOSITORY_ROOT | Report index DOCS_FOLDER"
					+ " | Report plots DOCS_FOLDER");
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
			case "replicas" -> replicas();
			default -> throw new IllegalArgumentException("Unknown table: " + table);
		}
		return this.out.toString();
	}

	// ------------------------------------------------------------------------------------------
	// common parts

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
		int runs = this.run.runs();
		if (runs > 1) {
			setup.row("Runs", runs + " per server, each started afresh, alternating with its peers; medians with the "
					+ "range (lowest–highest) in brackets");
		}
		if (!this.run.meta("scale").equals("1") && !this.run.meta("scale").isBlank()) {
			setup.row("Scale", "request counts × " + this.run.meta("scale") + " (a shortened run)");
		}
		if (!this.plots.isEmpty()) {
			List<String> links = this.plots.stream().map((p) -> "[" + p.caption() + "](" + p.file() + ")").toList();
			setup.row("Plots", String.join(", ", links));
		}
		String gatling = this.run.gatlingArchive();
		if (gatling != null) {
			setup.row("Gatling reports", "[" + gatling + "](" + gatling + ") (the HTML reports of this run, tar.xz)");
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
		this.out.append("Peak RSS counts every process of the server's cgroup (without one: the process and its "
				+ "children), sampled every 250 ms; it includes the pages of mapped files the server touched, such as "
				+ "a JVM's class-data archive. The cgroup peak counts what the kernel charged to the server: its "
				+ "memory, the page cache it brought in, and the pages of the class-data archive (`--cds`), which "
				+ "the harness drops from the page cache before each start so that Wharf's own reads charge them to "
				+ "it. Requests per second are per level: answered requests divided by the level's wall time (first "
				+ "connection to last answer), as ab reports them. CPU per request is the CPU time the server's "
				+ "cgroup used (every process in it; without a cgroup, the server's process tree from /proc) from "
				+ "the level's first connection to its last answer, divided by the level's requests; the load "
				+ "generator's is its own process's utime + stime over the same window.")
			.append(this.run.meta("fairness").isBlank() ? "" : " " + this.run.meta("fairness"))
			.append("\n\n");
	}

	/**
	 * Every level with its medians, CPU per request and peak RSS, under the
	 * original-shaped tables.
	 */
	private void allLevels() {
		Markdown table = new Markdown("server", "part", "concurrency", "requests", "failed (all runs)", "req/s", "50%",
				"99%", "server CPU per request", "load generator CPU per request", "peak RSS");
		for (LevelRuns level : this.run.levels()) {
			LevelResult r = level.median();
			table.row(level.target(), level.part(), level.concurrency(), Markdown.group(r.requests()), level.failed(),
					level.cell(), Markdown.millis(r.p50Micros()), Markdown.millis(r.p99Micros()), level.serverCpu(),
					level.loadgenCpu(), Markdown.megabytes(this.run.peakRssKb(r)));
		}
		if (!table.isEmpty()) {
			this.out.append("## Every level\n\n")
				.append((this.run.runs() > 1)
						? "Medians of the runs, range in brackets; 50 %, 99 % and peak RSS of the " + "median run.\n\n"
						: "")
				.append(table)
				.append('\n');
		}
	}

	/** A table cell for a level that may not have run. */
	static String cell(Optional<LevelRuns> level) {
		return level.map(LevelRuns::cell).orElse("not run");
	}

	private static double rate(Optional<LevelRuns> level) {
		return level.map(LevelRuns::rate).orElse(0.0);
	}

	/**
	 * The peer measured beside a Wharf server: {@code filestash-p128} for
	 * {@code wharf-p128}, when it ran.
	 */
	private Optional<String> peerOf(String wharf, String peer) {
		String name = peer + wharf.substring("wharf".length());
		return this.run.targetNames().contains(name) ? Optional.of(name) : Optional.empty();
	}

	private List<String> wharfTargets() {
		return this.run.targetNames().stream().filter(RunData.Target::isWharf).toList();
	}

	// ------------------------------------------------------------------------------------------
	// Filestash

	private static final String FILESTASH_PEER = "Filestash itself runs in the same run, built from its sources "
			+ "(load-tests/peers/filestash-build.sh), under the same memory limit, CPU quota and cores as the Wharf "
			+ "server beside it, with the same client and requests: its `blackhole` backend for the in-memory listing, "
			+ "its `sftp` backend to the same OpenSSH server for the SFTP listings and thumbnails (each backend a "
			+ "session of its own, as Filestash logs in per backend), its request log off like Wharf's. Before the "
			+ "levels every server gets the same warm-up, not counted: "
			+ Markdown.group(FilestashBenchmarkSimulation.DEFAULT_WARM_UP)
			+ " requests of each kind (a twentieth as many thumbnails), as the originals measured servers already "
			+ "running and a JVM compiles what it serves during its first thousands of requests.";

	private void filestashBenchmark() {
		header("Filestash \"Benchmarking results\", reproduced", Originals.FILESTASH_BENCHMARK,
				"Filestash ran in docker containers of 32 MB/1 core, 128 MB/2 cores and 512 MB/4 cores; Wharf runs "
						+ "once per JVM profile (p96, p128, p512: 32 MB is out of reach for HotSpot, see "
						+ "platform-app/src/main/jvm/README.md), with its file manager alone, as Filestash is one "
						+ "(load-tests/config/wharf-bench-filemanager-only.yaml: no FTP, static sites or build cache). "
						+ FILESTASH_PEER + " Requests as in the original ab commands: `ab -k -c N "
						+ "-n 1000` for `/`, `/api/files/ls?path=…` (over SFTP to OpenSSH on the same machine) and "
						+ "`/api/files/cat?path=…png&thumbnail=true` (made on every request, as Filestash makes them: "
						+ "Wharf's thumbnail caches are off in load-tests/config/wharf-bench.yaml), the API calls with "
						+ "`Cookie: auth=…` and `X-Requested-With: XmlHttpRequest`. (×N) is Wharf's rate divided by "
						+ "Filestash's in the same run; the 2019 columns are Filestash's published figures (other hardware). "
						+ "A profile whose cells say failed or not run did not fit its budget: its OOM kills are in the "
						+ "servers table below. Why, measured: the JVM alone commits about 70 MB of class metadata, code, "
						+ "symbols and class-data archive before the heap (p128's 48 MB) and the threads, so the file "
						+ "manager is killed under 96 MB and 128 MB; the committed memory by kind and the budgets that "
						+ "work (the file manager alone in 160 MB, the whole application in 192 MB) are in "
						+ "platform-app/src/main/jvm/README.md.");
		String[] parts = { "static", "ls", "thumbnail" };
		String[] names = { "Static file", "List files", "Transcode image" };
		for (String target : wharfTargets()) {
			String profile = this.run.target(target).map(RunData.Target::profile).orElse(target);
			int[][] original = Originals.FILESTASH_GRID.get(profile);
			Optional<String> peer = peerOf(target, "filestash");
			this.out.append("## ")
				.append(target)
				.append(peer.map((p) -> " and " + p).orElse(""))
				.append(" (compare: ")
				.append(Originals.FILESTASH_SIZE.getOrDefault(profile, "–"))
				.append(")\n\n");
			List<String> header = new ArrayList<>(List.of("Level of concurrency"));
			for (String name : names) {
				header.addAll(List.of(name + ": Wharf", "Filestash (this run)", "Filestash (2019)"));
			}
			Markdown grid = new Markdown(header.toArray(String[]::new));
			for (int i = 0; i < Originals.GRID.size(); i++) {
				int c = Originals.GRID.get(i);
				List<Object> cells = new ArrayList<>(List.of(c));
				for (int p = 0; p < parts.length; p++) {
					String part = parts[p];
					Optional<LevelRuns> w = this.run.level(target, part, c);
					Optional<LevelRuns> f = peer.flatMap((name) -> this.run.level(name, part, c));
					cells.add(cell(w) + (f.isPresent() ? " (" + Markdown.ratio(rate(w), rate(f)) + ")" : ""));
					cells.add(peer.isPresent() ? cell(f) : "–");
					cells.add((original == null) ? "–" : (original[i][p] > 0) ? original[i][p] + " req/s" : "failed");
				}
				grid.row(cells.toArray());
			}
			this.out.append(grid).append('\n');
			Markdown root = new Markdown("ab -k -c N -n 50000 /", "Failed requests", "Requests per second", "50%",
					"99%", "peak RSS", "Filestash (this run)", "Filestash peak RSS (this run)",
					"Filestash req/s (2019)", "Filestash peak RAM (2019)");
			for (int[] o : Originals.FILESTASH_ROOT) {
				rootRow(root, "c=" + o[0], target, peer, "root", o[0], o[1], (o[2] > 0) ? o[2] + " MB" : "–");
			}
			rootRow(root, "ls over SFTP, c=1000 n=100000", target, peer, "ls-1000", 1000,
					Originals.FILESTASH_LS_1000[0], Originals.FILESTASH_LS_1000[1] + " MB");
			this.out.append(root).append('\n');
		}
		allLevels();
	}

	private void rootRow(Markdown table, String label, String target, Optional<String> peer, String part, int c,
			int published, String publishedRam) {
		Optional<LevelRuns> w = this.run.level(target, part, c);
		Optional<LevelRuns> f = peer.flatMap((name) -> this.run.level(name, part, c));
		table.row(label, w.map((x) -> Long.toString(x.failed())).orElse("–"),
				cell(w) + (f.isPresent() ? " (" + Markdown.ratio(rate(w), rate(f)) + ")" : ""),
				w.map((x) -> Markdown.millis(x.median().p50Micros())).orElse("–"),
				w.map((x) -> Markdown.millis(x.median().p99Micros())).orElse("–"),
				w.map((x) -> Markdown.megabytes(this.run.peakRssKb(x.median()))).orElse("–"),
				peer.isPresent() ? cell(f) : "–",
				f.map((x) -> Markdown.megabytes(this.run.peakRssKb(x.median()))).orElse("–"), published, publishedRam);
	}

	private void filestashLoadTest() {
		header("Filestash \"Load testing results\", reproduced", Originals.FILESTASH_LOADTEST,
				"Wharf runs its file manager alone, as Filestash is one (load-tests/config/"
						+ "wharf-bench-filemanager-only.yaml). " + FILESTASH_PEER + " Requests as in the original ab "
						+ "commands (`ab -k`; the `ls` calls with `Cookie: auth=…` and "
						+ "`X-Requested-With: XmlHttpRequest`). Filestash's static page was `/login`; both servers are "
						+ "sent `/` (each one's web page). Filestash's in-memory backend was `blackhole` (six fake "
						+ "entries); Wharf lists six files on a `memory` mount.");
		for (String target : this.run.targetNames()) {
			Optional<String> peer = RunData.Target.isWharf(target) ? peerOf(target, "filestash") : Optional.empty();
			this.out.append("## ").append(target).append("\n\n");
			List<String> header = new ArrayList<>(List.of("Test", "Command", "Complete requests", "Failed requests",
					"Requests per second", "Time per request (mean)", "50%", "99%", "peak RSS"));
			if (peer.isPresent()) {
				header.addAll(List.of("Filestash (this run)", "Wharf ÷ Filestash (this run)"));
			}
			header.addAll(List.of("Filestash req/s (2021)", "÷ Filestash (2021)"));
			Markdown table = new Markdown(header.toArray(String[]::new));
			for (Object[] o : Originals.FILESTASH_LOADTEST_ROWS) {
				String part = (String) o[0];
				int c = (Integer) o[1];
				Optional<LevelRuns> r = this.run.level(target, part, c);
				Optional<LevelResult> m = r.map(LevelRuns::median);
				String path = part.equals("static") ? "/" : "/api/files/ls?path=%2F…";
				List<Object> cells = new ArrayList<>(List.of(part, "`ab -k -c " + c + " -n " + o[2] + " " + path + "`",
						m.map((x) -> Markdown.group(x.requests())).orElse("–"),
						r.map((x) -> Long.toString(x.failed())).orElse("–"), cell(r),
						m.filter((x) -> x.ok() > 0)
							.map((x) -> String.format(Locale.ROOT, "%.3f ms", c * 1000.0 / x.requestsPerSecond()))
							.orElse("–"),
						m.map((x) -> Markdown.millis(x.p50Micros())).orElse("–"),
						m.map((x) -> Markdown.millis(x.p99Micros())).orElse("–"),
						m.map((x) -> Markdown.megabytes(this.run.peakRssKb(x))).orElse("–")));
				if (peer.isPresent()) {
					Optional<LevelRuns> f = this.run.level(peer.get(), part, c);
					cells.addAll(List.of(cell(f), Markdown.ratio(rate(r), rate(f))));
				}
				cells.addAll(
						List.of(Markdown.rate((Double) o[3]) + (((Integer) o[4] > 0) ? " (" + o[4] + " failed)" : ""),
								Markdown.ratio(rate(r), (Double) o[3])));
				table.row(cells.toArray());
			}
			this.out.append(table).append('\n');
		}
		allLevels();
	}

	// ------------------------------------------------------------------------------------------
	// RBCS

	private void rbcs() {
		header("RBCS performance benchmarks, reproduced", Originals.RBCS,
				"Method as `rbcs-cli client benchmark`: per size and connection count, PUT every entry under a new "
						+ "32-hex-digit key, then GET each back and compare it; req/s = entries ÷ wall time of the "
						+ "phase, after a warm-up of 4,000 PUTs and GETs of 4 KiB that is not counted (a JVM runs its "
						+ "first thousands of requests mostly interpreted). Authentication (Basic) on, TLS and "
						+ "compression off. Every server gets the same entries per level: 10,000, and of 64 KiB values "
						+ "2,048 (128 MiB, what Wharf's memory backend holds in p512's heap). The peer is nginx storing "
						+ "PUTs on disk (WebDAV) under the same CPU quota and memory limit. RBCS's columns are its "
						+ "published rows for the same backend at CPU quota 1.00, and at 3.50 for Wharf's 2-CPU rows.");
		Markdown table = new Markdown("Cache backend", "CPU quota", "Memory quota", "Request size (b)",
				"Client connections", "Entries", "PUT (req/s)", "GET (req/s)", "failed", "RBCS PUT (req/s)",
				"RBCS GET (req/s)");
		for (String target : this.run.targetNames()) {
			RunData.Target t = this.run.target(target).orElse(null);
			String backend = backendOf(target);
			String cpus = (t != null) ? t.cpus() : "–";
			Map<String, LevelRuns[]> rows = new LinkedHashMap<>();
			if (t != null && t.isWharf()) {
				// Every published row of this backend, measured or not, so a skipped run
				// still shows the original.
				double quota = cpus.startsWith("1") ? 1.0 : 3.5;
				for (Object[] o : Originals.RBCS_ROWS) {
					if (o[0].equals(backend) && (Double) o[1] == quota) {
						rows.put(Parameters.byteLabel((Integer) o[2]) + "|" + o[3], new LevelRuns[2]);
					}
				}
			}
			for (LevelRuns level : this.run.levels()) {
				if (level.target().equals(target)) {
					String[] kind = level.part().split(" ", 2);
					LevelRuns[] pair = rows.computeIfAbsent(kind[1] + "|" + level.concurrency(),
							(k) -> new LevelRuns[2]);
					pair[kind[0].equals("PUT") ? 0 : 1] = level;
				}
			}
			for (Map.Entry<String, LevelRuns[]> row : rows.entrySet()) {
				String[] key = row.getKey().split("\\|");
				int size = bytes(key[0]);
				int connections = Integer.parseInt(key[1]);
				LevelRuns put = row.getValue()[0];
				LevelRuns get = row.getValue()[1];
				Object[] original = rbcsOriginal(backend, cpus, size, connections);
				table.row(backend, cpus, (t != null) ? t.memory() : "–", size, connections,
						(put != null) ? Markdown.group(put.median().requests()) : "–", rbcsCell(put), rbcsCell(get),
						(put == null && get == null) ? "not run"
								: Long
									.toString(((put != null) ? put.failed() : 0) + ((get != null) ? get.failed() : 0)),
						(original != null) ? original[4] : "–", (original != null) ? original[5] : "–");
			}
		}
		this.out.append(table).append('\n');
		allLevels();
	}

	private static String rbcsCell(LevelRuns level) {
		if (level == null) {
			return "–";
		}
		return Markdown.rate(level.median().requestsPerSecond())
				+ LevelRuns.range(level.runs(), LevelResult::requestsPerSecond, Markdown::rate);
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
			if (o[0].equals(backend) && (Double) o[1] == quota && (Integer) o[2] == size
					&& (Integer) o[3] == connections) {
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

	// ------------------------------------------------------------------------------------------
	// Socko

	/**
	 * The part a Socko level has in the results: its size, and " without keep-alive" for
	 * Socko's own ab (no {@code -k}). Runs made before both were measured in one run
	 * named every level by its size alone, with {@code keepalive=false} in their metadata
	 * when they ran without.
	 */
	static String sockoPart(String label, boolean keepAlive) {
		return keepAlive ? label : label + SockoSimulation.WITHOUT_KEEP_ALIVE;
	}

	private void socko() {
		String mode = this.run.meta("keepalive");
		boolean oldWithout = mode.equals("false")
				&& this.run.results.stream().noneMatch((r) -> r.part().endsWith(SockoSimulation.WITHOUT_KEEP_ALIVE));
		int runs = this.run.runs();
		boolean with = this.run.results.stream().anyMatch((r) -> !r.part().endsWith(SockoSimulation.WITHOUT_KEEP_ALIVE))
				&& !oldWithout;
		boolean without = oldWithout
				|| this.run.results.stream().anyMatch((r) -> r.part().endsWith(SockoSimulation.WITHOUT_KEEP_ALIVE));
		String connections = (with && without)
				? "This run made each test both ways: with keep-alive (`ab -k`; module-static's target is set with "
						+ "keep-alive clients, `ab -k` and wrk) and without, a new connection per request, like Socko's ab."
				: without ? "This run opened a new connection per request, like Socko's ab."
						: "This run kept connections alive (`ab -k`; module-static's target is set with keep-alive "
								+ "clients, `ab -k` and wrk); `--keepalive both` (run.sh's default) adds Socko's own.";
		header("Socko's static file benchmark, reproduced", Originals.SOCKO,
				"Socko's tests used `ab -nM -c100` without keep-alive. " + connections + " Before the levels, "
						+ Markdown.group(SockoSimulation.DEFAULT_WARM_UP)
						+ " requests of each file are sent and not counted (a JVM compiles each "
						+ "path it serves during its first thousands of requests; Socko measured servers already running). "
						+ "nginx serves the same folder under the same CPU quota and memory limit in the same run, "
						+ "with the same warm-up."
						+ ((runs > 1) ? " The figures are medians of " + runs
								+ " alternating runs (Wharf, nginx, Wharf, …): "
								+ "each row is the run with the median requests per second, with the range over the runs "
								+ "in brackets; failed requests are summed over the runs." : ""));
		for (boolean keepAlive : List.of(true, false)) {
			int test = 1;
			for (Object[] o : Originals.SOCKO_ROWS) {
				int size = (Integer) o[0];
				int requests = (Integer) o[1];
				String label = Parameters.byteLabel(size);
				String part = oldWithout ? (keepAlive ? null : label) : sockoPart(label, keepAlive);
				if (part == null || this.run.results.stream().noneMatch((r) -> r.part().equals(part))) {
					continue;
				}
				this.out.append("## Test #")
					.append(test++)
					.append(" - ")
					.append(label)
					.append(" static file, 100 concurrent users, ")
					.append(Markdown.group(requests))
					.append(" requests, ")
					.append(keepAlive ? "keep-alive (`ab -k`)" : "without keep-alive (Socko's ab)")
					.append("\n\n");
				Markdown table = new Markdown("Web Server", "Time taken for tests", "Requests per second (mean)",
						"Failed requests", "99%", "server CPU per request");
				for (String target : this.run.targetNames()) {
					Optional<LevelRuns> r = this.run.level(target, part, 100);
					table.row(target + " (this run)",
							r.map((x) -> String.format(Locale.ROOT, "%.3f seconds", x.median().seconds())).orElse("–"),
							cell(r), r.map((x) -> Long.toString(x.failed())).orElse("–"),
							r.map((x) -> Markdown.millis(x.median().p99Micros())).orElse("–"),
							r.map(LevelRuns::serverCpu).orElse("–"));
				}
				for (Object[] server : (Object[][]) o[2]) {
					table.row(server[0] + " (published, 2012)", server[1] + " seconds",
							String.format(Locale.ROOT, "%.2f [#/sec]", (Double) server[2]), "–", "–", "–");
				}
				this.out.append(table).append('\n');
			}
		}
		allLevels();
	}

	// ------------------------------------------------------------------------------------------
	// pyftpdlib

	private void pyftpdlib() {
		// Runs made before every table had rounds ran ftpbench several times against one
		// start of each server.
		boolean rounds = !this.run.meta("runs").isBlank();
		header("pyftpdlib's FTP benchmark, reproduced", Originals.PYFTPDLIB,
				"pyftpdlib's own `ftpbench` (from the pyftpdlib 2.2.0 wheel; psutil < 7 for `-k`) run as published, "
						+ "`ftpbench -u USER -p PASSWORD -b all -n 300 -s 10M -t 60 -k PID`, against each server in turn "
						+ "under the same CPU quota and memory limit (the servers table lists them; the original compared "
						+ "pyftpdlib, proftpd and vsftpd)"
						+ (rounds ? ", each started afresh for every ftpbench run, the servers taking turns"
								: ", several ftpbench runs against one start of each server")
						+ "; the medians of the runs (range in brackets). "
						+ "Memory is ftpbench's own (rss - shared of the server and its direct children). Both `RETR` rows "
						+ "download the file the `STOR` row before them has just written for one second (over a GB at these "
						+ "rates): where that is more than the memory limit holds as page cache, they read it back from disk, "
						+ "for every server alike (docs/benchmarks/ftp.md).");
		List<String> targets = this.run.targetNames();
		Map<String, Map<String, List<RunData.FtpbenchRow>>> values = new LinkedHashMap<>();
		List<String> rows = new ArrayList<>();
		for (String target : targets) {
			Map<String, List<RunData.FtpbenchRow>> byRow = new LinkedHashMap<>();
			for (List<RunData.FtpbenchRow> runRows : this.run.ftpbenchRows(target)) {
				for (RunData.FtpbenchRow row : runRows) {
					if (!rows.contains(row.row())) {
						rows.add(row.row());
					}
					byRow.computeIfAbsent(row.row(), (k) -> new ArrayList<>()).add(row);
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
				List<RunData.FtpbenchRow> samples = values.get(target).getOrDefault(row, List.of());
				cells.add(median(samples));
				memoryCells.add(RunData.median(samples, RunData.FtpbenchRow::value)
					.map(RunData.FtpbenchRow::memory)
					.filter((m) -> !m.isBlank())
					.orElse("–"));
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
		this.out.append("## Speed\n\n")
			.append(speed)
			.append("\n## Memory\n\n")
			.append(memory)
			.append('\n')
			.append("Published memory with 300 clients connected: pyftpdlib ")
			.append(Originals.PYFTPDLIB_MEMORY_300[0])
			.append(", proftpd ")
			.append(Originals.PYFTPDLIB_MEMORY_300[1])
			.append(", vsftpd ")
			.append(Originals.PYFTPDLIB_MEMORY_300[2])
			.append(".\n\n");
		Markdown cpu = new Markdown("server", "runs", "wall time of an ftpbench run", "server CPU per run",
				"ftpbench CPU per run");
		for (String target : targets) {
			List<long[]> runs = this.run.ftpbenchCpu(target);
			if (!runs.isEmpty()) {
				cpu.row(target, runs.size(), seconds(runs, 2, 1000), seconds(runs, 0, 1_000_000),
						seconds(runs, 1, 1_000_000));
			}
		}
		if (!cpu.isEmpty()) {
			this.out.append("## CPU\n\n")
				.append("The CPU time each server's cgroup (every process in it; without a cgroup, its process tree) "
						+ "and ftpbench (its process and children, from the shell's `times`) used over a whole ftpbench "
						+ "run, which sends the same work to every server: less is cheaper.\n\n")
				.append(cpu)
				.append('\n');
		}
	}

	/**
	 * The median of one column of per-run figures in seconds, with the range, or "–" when
	 * none is known.
	 */
	private static String seconds(List<long[]> runs, int column, double perSecond) {
		List<long[]> known = runs.stream().filter((r) -> r[column] >= 0).toList();
		DoubleFunction<String> format = (v) -> String.format(Locale.ROOT, "%.2f", v / perSecond);
		return RunData.median(known, (r) -> r[column])
			.map((m) -> format.apply(m[column]) + " s" + LevelRuns.range(known, (r) -> r[column], format))
			.orElse("–");
	}

	/** ftpbench's runs of a row: "median unit [lowest–highest]", or "–" without runs. */
	static String median(List<RunData.FtpbenchRow> samples) {
		ToDoubleFunction<RunData.FtpbenchRow> value = RunData.FtpbenchRow::value;
		DoubleFunction<String> format = (v) -> String.format(Locale.ROOT, "%.2f", v);
		return RunData.median(samples, value)
			.map((m) -> format.apply(m.value()) + " " + m.unit() + LevelRuns.range(samples, value, format))
			.orElse("–");
	}

	// ------------------------------------------------------------------------------------------
	// profiles

	private void profiles() {
		header("JVM profiles: start-up, memory and throughput under their limits", "none (Wharf's own measurement)",
				"Each profile's options and environment from `platform-app/src/main/jvm/`, under its memory limit and "
						+ "CPU quota; `GET /actuator/health` (and the static files with `--with-static`) with `ab -k`-style "
						+ "levels; with several runs, the profiles take turns.");
		allLevels();
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
						Markdown.rate(r.requestsPerSecond()), Markdown.millis(r.p50Micros()),
						Markdown.millis(r.p99Micros()));
			}
		}
		this.out.append(table).append('\n');
		String cpu = this.run.meta("cpu");
		if (!cpu.isBlank()) {
			this.out.append("CPU (user and system seconds, during the Gatling levels): ").append(cpu).append(".\n");
		}
	}

}
