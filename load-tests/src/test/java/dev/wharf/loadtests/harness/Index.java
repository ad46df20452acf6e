package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Writes {@code docs/benchmarks/README.md}: for every published table, the original's
 * figures, Wharf's from the last run, the peer's from that same run, and the ratios, read
 * from the results {@code run.sh} copied to {@code docs/benchmarks/results/}. A table not
 * run yet says how to run it.
 */
final class Index {

	private static final List<String[]> TABLES = List.of(
			new String[] { "filestash-benchmark", "Filestash \"Benchmarking results\"", Originals.FILESTASH_BENCHMARK },
			new String[] { "filestash-loadtest", "Filestash \"Load testing results\"", Originals.FILESTASH_LOADTEST },
			new String[] { "rbcs", "RBCS performance benchmarks", Originals.RBCS },
			new String[] { "socko", "Socko static files", Originals.SOCKO },
			new String[] { "pyftpdlib", "pyftpdlib (ftpbench)", Originals.PYFTPDLIB },
			new String[] { "profiles", "JVM profiles (Wharf's own)", "none" });

	private Index() {
	}

	static void write(Path docs) throws IOException {
		StringBuilder out = new StringBuilder();
		out.append("# Benchmarks\n\n")
			.append("Every published table Wharf is measured against, reproduced on one machine by `load-tests/run.sh TABLE` ")
			.append("(see `load-tests/README.md`). Each report below keeps the original's shape and states the machine, JDK, ")
			.append("JVM profile, limits, flags and command. Here: the original's figures, Wharf's from the last run, the peer's ")
			.append("from that same run (same machine, limits and load generator), and the ratios. An original ran on other ")
			.append("hardware, so Wharf ÷ original is an order of magnitude; Wharf ÷ peer is the comparison that counts. ")
			.append("This file is written by `run.sh` (`Report index`); do not edit it by hand.\n\n");
		Markdown overview = new Markdown("Table", "Original", "Report", "Plots", "Last run", "Note");
		for (String[] table : TABLES) {
			RunData run = load(docs, table[0]);
			overview.row(table[1], table[2], (run != null) ? "[" + table[0] + ".md](" + table[0] + ".md)" : "–",
					plots(docs, table[0]),
					(run != null) ? run.meta("date") : "not run yet: `load-tests/run.sh " + table[0] + "`",
					(run != null) ? run.meta("note") : "");
		}
		out.append(overview).append('\n');
		for (String[] table : TABLES) {
			RunData run = load(docs, table[0]);
			if (run == null) {
				continue;
			}
			out.append("## ").append(table[1]).append("\n\n");
			Markdown rows = new Markdown("What", "Original", "Wharf", "Peer (same run)", "Wharf ÷ original",
					"Wharf ÷ peer");
			switch (table[0]) {
				case "filestash-benchmark" -> filestashBenchmark(run, rows);
				case "filestash-loadtest" -> filestashLoadTest(run, rows);
				case "rbcs" -> rbcs(run, rows);
				case "socko" -> socko(run, rows);
				case "pyftpdlib" -> pyftpdlib(run, rows);
				default -> own(run, rows);
			}
			out.append(rows).append('\n');
		}
		Files.writeString(docs.resolve("README.md"), out.toString(), StandardCharsets.UTF_8);
	}

	/**
	 * Links to a table's plots, named by what they show:
	 * "[throughput](plots/socko-throughput.svg), …".
	 */
	private static String plots(Path docs, String table) throws IOException {
		Path folder = docs.resolve("plots");
		if (!Files.isDirectory(folder)) {
			return "–";
		}
		try (Stream<Path> files = Files.list(folder)) {
			List<String> links = files.map((f) -> f.getFileName().toString())
				.filter((name) -> name.startsWith(table + "-") && name.endsWith(".svg"))
				.sorted()
				.map((name) -> "[" + name.substring(table.length() + 1, name.length() - 4) + "](plots/" + name + ")")
				.toList();
			return links.isEmpty() ? "–" : String.join(", ", links);
		}
	}

	private static RunData load(Path docs, String table) {
		Path results = docs.resolve("results");
		return Files.exists(results.resolve(table + ".meta.properties")) ? new RunData(results, table + ".") : null;
	}

	private static String rate(Optional<LevelRuns> level) {
		return Report.cell(level);
	}

	private static double value(Optional<LevelRuns> level) {
		return level.map(LevelRuns::rate).orElse(0.0);
	}

	/**
	 * The same-run peer of a Wharf server, such as {@code filestash-p128} for
	 * {@code wharf-p128}.
	 */
	private static String peer(String peer, String wharf) {
		return peer + wharf.substring("wharf".length());
	}

	private static void filestashBenchmark(RunData run, Markdown rows) {
		String[] parts = { "static", "ls", "thumbnail" };
		String[] names = { "static file", "list files (SFTP)", "thumbnail" };
		for (String target : run.targetNames()) {
			String profile = run.target(target).map(RunData.Target::profile).orElse(target);
			int[][] grid = Originals.FILESTASH_GRID.get(profile);
			if (grid == null || !RunData.Target.isWharf(target)) {
				continue;
			}
			String peer = peer("filestash", target);
			int i = Originals.GRID.indexOf(100);
			for (int p = 0; p < parts.length; p++) {
				Optional<LevelRuns> r = run.level(target, parts[p], 100);
				Optional<LevelRuns> f = run.level(peer, parts[p], 100);
				rows.row(target + ": " + names[p] + ", c=100", (grid[i][p] > 0) ? grid[i][p] + " req/s" : "failed",
						rate(r), f.isPresent() ? peer + " " + rate(f) : "–",
						(grid[i][p] > 0) ? Markdown.ratio(value(r), grid[i][p]) : "–",
						Markdown.ratio(value(r), value(f)));
			}
			Optional<LevelRuns> root = run.level(target, "root", 1000);
			Optional<LevelRuns> f = run.level(peer, "root", 1000);
			rows.row(target + ": `/`, c=1000 n=50000", "5817 req/s, 71 MB", rate(root),
					f.isPresent() ? peer + " " + rate(f) : "–", Markdown.ratio(value(root), 5817),
					Markdown.ratio(value(root), value(f)));
		}
	}

	private static void filestashLoadTest(RunData run, Markdown rows) {
		for (String target : run.targetNames()) {
			if (!RunData.Target.isWharf(target)) {
				continue;
			}
			String peer = peer("filestash", target);
			for (Object[] o : Originals.FILESTASH_LOADTEST_ROWS) {
				Optional<LevelRuns> r = run.level(target, (String) o[0], (Integer) o[1]);
				Optional<LevelRuns> f = run.level(peer, (String) o[0], (Integer) o[1]);
				rows.row(target + ": " + o[0] + ", c=" + o[1], Markdown.rate((Double) o[3]) + " req/s", rate(r),
						f.isPresent() ? peer + " " + rate(f) : "–", Markdown.ratio(value(r), (Double) o[3]),
						Markdown.ratio(value(r), value(f)));
			}
		}
	}

	private static void rbcs(RunData run, Markdown rows) {
		for (String target : run.targetNames()) {
			if (target.startsWith("nginx")) {
				continue;
			}
			String cpus = run.target(target).map(RunData.Target::cpus).orElse("1");
			String peer = "nginx-" + cpus + "cpu";
			for (String kind : List.of("PUT", "GET")) {
				for (String size : List.of("128 B", "4 KiB", "64 KiB")) {
					Optional<LevelRuns> r = run.level(target, kind + " " + size, 100);
					Optional<LevelRuns> p = run.level(peer, kind + " " + size, 100);
					Object[] original = Report.rbcsOriginal(Report.backendOf(target), cpus, Report.bytes(size), 100);
					int published = (original == null) ? 0 : (Integer) original[kind.equals("PUT") ? 4 : 5];
					rows.row(target + ": " + kind + " " + size + ", 100 connections",
							(published > 0) ? published + " req/s" : "–", rate(r),
							p.isPresent() ? peer + " " + rate(p) : "–", Markdown.ratio(value(r), published),
							Markdown.ratio(value(r), value(p)));
				}
			}
		}
	}

	private static void socko(RunData run, Markdown rows) {
		for (boolean keepAlive : List.of(true, false)) {
			for (Object[] o : Originals.SOCKO_ROWS) {
				String label = dev.wharf.loadtests.Parameters.byteLabel((Integer) o[0]);
				String part = Report.sockoPart(label, keepAlive);
				Object[] best = ((Object[][]) o[2])[0];
				Object[] socko = null;
				for (Object[] server : (Object[][]) o[2]) {
					if (server[0].equals("Socko")) {
						socko = server;
					}
				}
				Optional<LevelRuns> nginx = run.level("nginx", part, 100);
				for (String target : run.targetNames()) {
					Optional<LevelRuns> r = run.level(target, part, 100);
					if (target.equals("nginx") || r.isEmpty()) {
						continue;
					}
					rows.row(target + ": " + part + ", c=100, n=" + Markdown.group((Integer) o[1]),
							String.format(Locale.ROOT, "Socko %.0f req/s (best: %s %.0f)", (Double) socko[2], best[0],
									(Double) best[2]),
							rate(r), "nginx " + rate(nginx), Markdown.ratio(value(r), (Double) socko[2]),
							Markdown.ratio(value(r), value(nginx)));
				}
			}
		}
	}

	private static void pyftpdlib(RunData run, Markdown rows) {
		List<String> targets = run.targetNames();
		String wharf = targets.stream().filter((t) -> t.startsWith("wharf")).findFirst().orElse(null);
		if (wharf == null) {
			return;
		}
		for (Object[] o : Originals.PYFTPDLIB_ROWS) {
			String row = (String) o[0];
			String wharfValue = median(run, wharf, row);
			List<String> peers = new ArrayList<>();
			double best = 0;
			boolean seconds = row.contains("concurrent clients");
			for (String peer : targets) {
				if (!peer.equals(wharf)) {
					String value = median(run, peer, row);
					peers.add(peer + " " + value);
					double v = number(value);
					if (v > 0 && (best == 0 || (seconds ? v < best : v > best))) {
						best = v;
					}
				}
			}
			double w = number(wharfValue);
			String vsPeer = (w > 0 && best > 0) ? Markdown.ratio(w, best) + (seconds ? " (time: lower is better)" : "")
					: "–";
			rows.row(row, "pyftpdlib " + o[1], wharfValue, String.join(", ", peers), "–", vsPeer);
		}
	}

	private static String median(RunData run, String target, String row) {
		List<RunData.FtpbenchRow> samples = new ArrayList<>();
		for (List<RunData.FtpbenchRow> rows : run.ftpbenchRows(target)) {
			rows.stream()
				.filter((r) -> r.row().replace("10.0M", "10M").equals(row.replace("10.0M", "10M")))
				.forEach(samples::add);
		}
		return Report.median(samples).replaceAll(" \\[.*", "");
	}

	private static double number(String value) {
		try {
			return Double.parseDouble(value.split(" ")[0]);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	private static void own(RunData run, Markdown rows) {
		for (RunData.Target t : run.targets) {
			rows.row(t.name() + ": start-up, peak RSS (" + t.memory() + " limit)", "–",
					(t.startSeconds().isBlank() ? "–" : t.startSeconds() + " s") + ", "
							+ Markdown.megabytes(t.peakRssKb()),
					"–", "–", "–");
		}
	}

}
