package dev.wharf.loadtests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts each level of a table separately: its wall-clock window (first user started to last user finished),
 * answers and failures, and latencies. Gatling's own per-request "Cnt/s" divides by the whole simulation's
 * duration, so it cannot give per-level rates; this can.
 *
 * <p>Thread-safe: every virtual user of a level records into the same counters.
 */
public final class LevelRecorder {

	private final String table;

	private final String target;

	private final Map<String, Level> levels = new ConcurrentHashMap<>();

	private final List<String> order = new ArrayList<>();

	/**
	 * Creates a recorder for one table and one server.
	 * @param table the published table
	 * @param target who answers
	 */
	public LevelRecorder(String table, String target) {
		this.table = table;
		this.target = target;
	}

	/**
	 * Declares a level; levels are reported in declaration order.
	 * @param key a unique key for the level
	 * @param part the table's column or section
	 * @param concurrency connections at once
	 * @return the level's counters
	 */
	public synchronized Level declare(String key, String part, int concurrency) {
		if (this.levels.containsKey(key)) {
			throw new IllegalArgumentException("Level declared twice: " + key);
		}
		Level level = new Level(part, concurrency);
		this.levels.put(key, level);
		this.order.add(key);
		return level;
	}

	/**
	 * The results of every level that ran, in declaration order.
	 * @return one result per level that started
	 */
	public synchronized List<LevelResult> results() {
		List<LevelResult> results = new ArrayList<>();
		for (String key : this.order) {
			Level level = this.levels.get(key);
			if (level.start.get() != Long.MAX_VALUE) {
				results.add(level.result(this.table, this.target));
			}
		}
		return results;
	}

	/**
	 * Appends the results to a file and prints them.
	 * @param file the results file
	 */
	public void write(Path file) {
		List<LevelResult> results = results();
		results.forEach(System.out::println);
		LevelResult.append(file, results);
	}

	/** The counters of one level. Thread-safe. */
	public static final class Level {

		private final String part;

		private final int concurrency;

		private final AtomicLong start = new AtomicLong(Long.MAX_VALUE);

		private final AtomicLong end = new AtomicLong(0);

		private final LongAdder ok = new LongAdder();

		private final LongAdder failed = new LongAdder();

		private final LatencyHistogram latencies = new LatencyHistogram();

		Level(String part, int concurrency) {
			this.part = part;
			this.concurrency = concurrency;
		}

		/** A user starts: the window opens at the first call. */
		public void userStarted() {
			this.start.accumulateAndGet(System.currentTimeMillis(), Math::min);
		}

		/** A user is done: the window closes at the last call. */
		public void userFinished() {
			this.end.accumulateAndGet(System.currentTimeMillis(), Math::max);
		}

		/**
		 * Counts one request.
		 * @param succeeded whether the answer was the expected one
		 * @param micros its latency, or a negative value when there was no answer
		 */
		public void request(boolean succeeded, long micros) {
			if (succeeded) {
				this.ok.increment();
			}
			else {
				this.failed.increment();
			}
			if (micros >= 0) {
				this.latencies.record(micros);
			}
		}

		LevelResult result(String table, String target) {
			long ok = this.ok.sum();
			long failed = this.failed.sum();
			long end = Math.max(this.end.get(), this.start.get());
			return new LevelResult(table, target, this.part, this.concurrency, ok + failed, ok, failed,
					this.start.get(), end, this.latencies.percentile(50), this.latencies.percentile(95),
					this.latencies.percentile(99));
		}

	}

}
