package dev.wharf.loadtests;

import java.nio.file.Path;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;

import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * A simulation that reproduces one published table. Subclasses add their levels to
 * {@link #levels} in their constructor and then call {@link #start()}. Parameters every
 * table shares:
 * <ul>
 * <li>{@code baseUrl}: the server, default {@code http://127.0.0.1:8334};</li>
 * <li>{@code target}: its name in the results, default {@code wharf} (the harness also
 * runs peers such as nginx);</li>
 * <li>{@code keepAlive}: reuse connections like {@code ab -k}, default true;</li>
 * <li>{@code results}: the results file the levels are appended to, default
 * {@code target/loadtests/results.tsv};</li>
 * <li>{@code scale} and {@code maxConcurrency}: shrink every level for a short run
 * ({@link #scaled}, {@link #capped});</li>
 * <li>{@code strict}: fail the run (Gatling's exit status) on any failed request, default
 * false; the smoke run sets it, a table run reports failures in its table instead, as the
 * originals did.</li>
 * </ul>
 */
public abstract class TableSimulation extends Simulation {

	/** The server. */
	protected final String baseUrl = Parameters.text("baseUrl", "http://127.0.0.1:8334");

	/** Whether connections are reused. */
	protected final boolean keepAlive = Parameters.flag("keepAlive", true);

	/** Counts every level. */
	protected final LevelRecorder recorder;

	/** The levels, in the order they run. */
	protected final AbLevels levels;

	private final Path results = Path.of(Parameters.text("results", "target/loadtests/results.tsv"));

	/**
	 * Creates the simulation of one table.
	 * @param table the table's name in the results
	 */
	protected TableSimulation(String table) {
		this.recorder = new LevelRecorder(table, Parameters.text("target", "wharf"));
		this.levels = new AbLevels(this.recorder);
	}

	/**
	 * The request count of a level after {@code -Dscale} (default 1; the smoke run uses a
	 * small fraction), never fewer than the level's connections.
	 * @param requests the original's request count
	 * @param concurrency the level's connections
	 * @return the count to send
	 */
	protected static int scaled(int requests, int concurrency) {
		double scale = Double.parseDouble(Parameters.text("scale", "1"));
		if (!(scale > 0)) {
			throw new IllegalArgumentException("-Dscale=" + scale + ": must be above 0");
		}
		return Math.max(concurrency, (int) Math.round(requests * scale));
	}

	/**
	 * A level's connections after {@code -DmaxConcurrency} (default: no cap; the smoke
	 * run caps them).
	 * @param concurrency the original's connections
	 * @return the connections to open
	 */
	protected static int capped(int concurrency) {
		return Math.min(concurrency, Parameters.positive("maxConcurrency", Integer.MAX_VALUE));
	}

	/**
	 * Adds a level as the original ran it, after {@link #capped} and {@link #scaled}.
	 * @param part the table's column or section
	 * @param concurrency the original's connections
	 * @param requests the original's request count
	 * @param request one request
	 */
	protected final void level(String part, int concurrency, int requests, ChainBuilder request) {
		int connections = capped(concurrency);
		this.levels.level(part, connections, scaled(requests, connections), request);
	}

	/**
	 * Requests sent before the levels and not counted, for a JVM server to compile the
	 * paths the levels then measure; every server of a table gets the same.
	 * @param concurrency the connections, capped like a level's
	 * @param requests the count before {@code -Dscale}
	 * @param request what each sends
	 */
	protected final void warmUp(int concurrency, int requests, ChainBuilder request) {
		int connections = capped(concurrency);
		this.levels.warmUp(connections, scaled(requests, connections), request);
	}

	/** Runs the levels added so far, one after the other. */
	protected final void start() {
		SetUp setUp = setUp(this.levels.chain()).protocols(AbLevels.protocol(this.baseUrl, this.keepAlive));
		if (Parameters.flag("strict", false)) {
			setUp.assertions(global().failedRequests().count().is(0L));
		}
	}

	@Override
	public void after() {
		this.recorder.write(this.results);
	}

}
