package dev.wharf.loadtests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Counts each level of a table separately: its wall-clock window (first user started to
 * last user finished), answers and failures, latencies, and the CPU time the server and
 * the load generator used in that window (read from their {@link CpuClock}s when the
 * first user starts and when the last one finishes). Gatling's own per-request "Cnt/s"
 * divides by the whole simulation's duration, so it cannot give per-level rates; this
 * can.
 *
 * <p>
 * Thread-safe: every virtual user of a level records into the same counters.
 */
public final class LevelRecorder {

	private final String table;

	private final String target;

	private final CpuClock serverCpu;

	private final CpuClock loadgenCpu;

	private final LongSupplier clock;

	private final Map<String, Level> levels = new ConcurrentHashMap<>();

	private final List<String> order = new ArrayList<>();

	/**
	 * Creates a recorder for one table and one server, with the CPU clocks the system
	 * properties name: {@code serverCpu} (default none) and {@code loadgenCpu} (default
	 * {@code self}, this process), as {@link CpuClock#of} reads them.
	 * @param table the published table
	 * @param target who answers
	 */
	public LevelRecorder(String table, String target) {
		this(table, target, CpuClock.of(Parameters.text("serverCpu", "")),
				CpuClock.of(Parameters.text("loadgenCpu", "self")));
	}

	/**
	 * Creates a recorder for one table and one server.
	 * @param table the published table
	 * @param target who answers
	 * @param serverCpu the server's CPU time
	 * @param loadgenCpu the load generator's CPU time
	 */
	public LevelRecorder(String table, String target, CpuClock serverCpu, CpuClock loadgenCpu) {
		this(table, target, serverCpu, loadgenCpu, System::currentTimeMillis);
	}

	/**
	 * Creates a recorder for one table and one server.
	 * @param table the published table
	 * @param target who answers
	 * @param serverCpu the server's CPU time
	 * @param loadgenCpu the load generator's CPU time
	 * @param clock the wall-clock time the levels' windows are read from, in epoch
	 * milliseconds
	 */
	public LevelRecorder(String table, String target, CpuClock serverCpu, CpuClock loadgenCpu, LongSupplier clock) {
		this.table = table;
		this.target = target;
		this.serverCpu = serverCpu;
		this.loadgenCpu = loadgenCpu;
		this.clock = clock;
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
		Level level = new Level(part, concurrency, this.serverCpu, this.loadgenCpu, this.clock);
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

		private final CpuClock serverCpu;

		private final CpuClock loadgenCpu;

		private final LongSupplier clock;

		private final AtomicLong start = new AtomicLong(Long.MAX_VALUE);

		private final AtomicInteger finishedUsers = new AtomicInteger();

		/**
		 * Server and load generator CPU at the first user's start, then at the last
		 * user's end; -1 until read.
		 */
		private final AtomicLongArray cpu = new AtomicLongArray(new long[] { -1, -1, -1, -1 });

		private final AtomicLong end = new AtomicLong(0);

		private final LongAdder ok = new LongAdder();

		private final LongAdder failed = new LongAdder();

		private final LatencyHistogram latencies = new LatencyHistogram();

		Level(String part, int concurrency, CpuClock serverCpu, CpuClock loadgenCpu, LongSupplier clock) {
			this.part = part;
			this.clock = clock;
			this.concurrency = concurrency;
			this.serverCpu = serverCpu;
			this.loadgenCpu = loadgenCpu;
		}

		/**
		 * A user starts: the window opens at the first call, which also reads the CPU
		 * clocks.
		 */
		public void userStarted() {
			long now = this.clock.getAsLong();
			if (this.start.compareAndSet(Long.MAX_VALUE, now)) {
				// One small file read per level, on the first user's thread: before its
				// first request goes out.
				this.cpu.set(0, this.serverCpu.micros());
				this.cpu.set(1, this.loadgenCpu.micros());
			}
			else {
				this.start.accumulateAndGet(now, Math::min);
			}
		}

		/**
		 * A user is done: the window closes at the last call; when every user of the
		 * level is done (as many as its concurrency), the CPU clocks are read again.
		 */
		public void userFinished() {
			if (this.finishedUsers.incrementAndGet() == this.concurrency) {
				this.cpu.set(2, this.serverCpu.micros());
				this.cpu.set(3, this.loadgenCpu.micros());
			}
			this.end.accumulateAndGet(this.clock.getAsLong(), Math::max);
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
					this.latencies.percentile(99), used(this.cpu.get(0), this.cpu.get(2)),
					used(this.cpu.get(1), this.cpu.get(3)));
		}

		private static long used(long before, long after) {
			return (before < 0 || after < before) ? -1 : after - before;
		}

	}

}
