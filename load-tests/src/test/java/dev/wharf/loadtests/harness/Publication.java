package dev.wharf.loadtests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Publishes a run: copies the files {@code run.sh} left in its run folder to
 * {@code DOCS/results/TABLE.*} (and its compressed Gatling reports,
 * {@code gatling.tar.xz}, to {@code DOCS/results/gatling/TABLE.tar.xz}), draws the
 * table's plots into {@code DOCS/plots/} ({@link Plots}) and writes its report
 * {@code DOCS/TABLE.md} from that copy, then rewrites the index. Every absolute path
 * inside the repository (the class-data archive in the JVM flags, for one) is written
 * relative to the repository root, so the published results read the same whichever
 * folder the repository was checked out to.
 *
 * <p>
 * Stateless. Two publications into the same folder at once would mix their files.
 */
final class Publication {

	/** The files of a run folder that are published. */
	private static final Pattern PUBLISHED = Pattern
		.compile("results\\.tsv|targets\\.tsv|meta\\.properties|rss-.+\\.tsv|ftpbench-.+\\.txt|ftpbench-cpu\\.tsv");

	/** The run folder's Gatling reports, compressed by run.sh. */
	private static final String GATLING_ARCHIVE = "gatling.tar.xz";

	private Publication() {
	}

	/**
	 * Publishes one run, replacing the table's previous results.
	 * @param table the table's name, such as {@code socko}
	 * @param run the run folder
	 * @param docs the benchmarks folder, such as {@code docs/benchmarks}
	 * @param repository the repository's root
	 * @throws IOException when a file cannot be read or written
	 */
	static void publish(String table, Path run, Path docs, Path repository) throws IOException {
		Path results = Files.createDirectories(docs.resolve("results"));
		for (Path previous : list(results, (name) -> name.startsWith(table + "."))) {
			Files.delete(previous);
		}
		String root = repository.toAbsolutePath().normalize() + "/";
		for (Path file : list(run, (name) -> PUBLISHED.matcher(name).matches())) {
			String text = Files.readString(file, StandardCharsets.UTF_8);
			Files.writeString(results.resolve(table + "." + file.getFileName()), text.replace(root, ""),
					StandardCharsets.UTF_8);
		}
		// The previous run's reports go with its results: a run without Gatling
		// (ftpbench) leaves none.
		Path gatling = results.resolve("gatling").resolve(table + ".tar.xz");
		Files.deleteIfExists(gatling);
		if (Files.exists(run.resolve(GATLING_ARCHIVE))) {
			Files.createDirectories(gatling.getParent());
			Files.copy(run.resolve(GATLING_ARCHIVE), gatling);
		}
		republish(table, docs);
		Index.write(docs);
	}

	/**
	 * Draws a published table's plots and writes its report again from its results in
	 * {@code DOCS/results/}.
	 * @param table the table's name
	 * @param docs the benchmarks folder
	 * @return false when the table has no published results
	 * @throws IOException when a file cannot be read or written
	 */
	static boolean republish(String table, Path docs) throws IOException {
		Path results = docs.resolve("results");
		if (!Files.exists(results.resolve(table + ".meta.properties"))) {
			return false;
		}
		RunData data = new RunData(results, table + ".");
		List<Plots.Figure> plots = Plots.write(table, data, docs);
		Files.writeString(docs.resolve(table + ".md"), new Report(data, plots).render(table), StandardCharsets.UTF_8);
		return true;
	}

	private static List<Path> list(Path folder, Predicate<String> name) throws IOException {
		try (Stream<Path> files = Files.list(folder)) {
			return files.filter((file) -> name.test(file.getFileName().toString())).sorted().toList();
		}
	}

}
