package dev.wharf.loadtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time a process or a cgroup has used so far, read before and after each level so
 * that a table can give each server's and the load generator's CPU per request. Sources,
 * as {@code -DserverCpu} names them:
 * <ul>
 * <li>{@code cgroup:FILE}: a cgroup's counter, everything its processes used, children
 * and helpers included ({@code cpuacct.usage} of cgroup v1 in nanoseconds, or
 * {@code cpu.stat} of cgroup v2 with its {@code usage_usec});</li>
 * <li>{@code pid:N}: {@code utime + stime} of a process and of its living descendants,
 * plus the children they have waited for ({@code cutime + cstime}), from
 * {@code /proc/N/stat}; what a server without a cgroup used;</li>
 * <li>{@code self}: this JVM's own {@code utime + stime}: the load generator when it runs
 * in-process (Gatling).</li>
 * </ul>
 * An empty source, or one that cannot be read (not Linux, the process gone), reads as
 * unknown ({@code -1}).
 *
 * <p>
 * Immutable and thread-safe; each read goes to the file system.
 */
public final class CpuClock {

	/**
	 * Linux reports {@code /proc/PID/stat} times in USER_HZ ticks, which is 100 on every
	 * architecture the JDK runs on.
	 */
	private static final long MICROS_PER_TICK = 10_000;

	private static final CpuClock NONE = new CpuClock("", null, -1);

	private final String source;

	private final Path file;

	private final long pid;

	private CpuClock(String source, Path file, long pid) {
		this.source = source;
		this.file = file;
		this.pid = pid;
	}

	/**
	 * A clock from its description.
	 * @param source {@code cgroup:FILE}, {@code pid:N}, {@code self}, or empty for none
	 * @return the clock
	 * @throws IllegalArgumentException for a description of another form
	 */
	public static CpuClock of(String source) {
		String text = source.trim();
		if (text.isEmpty()) {
			return NONE;
		}
		if (text.equals("self")) {
			return new CpuClock(text, null, 0);
		}
		if (text.startsWith("cgroup:") && text.length() > 7) {
			return new CpuClock(text, Path.of(text.substring(7)), -1);
		}
		if (text.startsWith("pid:")) {
			try {
				return new CpuClock(text, null, Long.parseLong(text.substring(4)));
			}
			catch (NumberFormatException ex) {
				// reported below
			}
		}
		throw new IllegalArgumentException("A CPU clock is cgroup:FILE, pid:N, self or empty, not " + source);
	}

	/**
	 * The CPU time used so far.
	 * @return microseconds, or -1 when unknown
	 */
	public long micros() {
		try {
			if (this.file != null) {
				return cgroupMicros(Files.readString(this.file, StandardCharsets.US_ASCII));
			}
			if (this.pid > 0) {
				return treeMicros(this.pid);
			}
			if (this.source.equals("self")) {
				return statMicros(statFields(Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII)),
						false);
			}
		}
		catch (IOException | RuntimeException ex) {
			// The process ended or the counter is gone: unknown, never a wrong figure.
		}
		return -1;
	}

	/**
	 * Whether this clock reads anything.
	 * @return false for the empty source
	 */
	public boolean isKnown() {
		return this != NONE;
	}

	/**
	 * {@code cpuacct.usage} (one number, nanoseconds) or {@code cpu.stat}
	 * ({@code usage_usec N} among others).
	 */
	static long cgroupMicros(String content) {
		for (String line : content.split("\n")) {
			String[] f = line.trim().split("\\s+");
			if (f.length == 2 && f[0].equals("usage_usec")) {
				return Long.parseLong(f[1]);
			}
			if (f.length == 1 && !f[0].isEmpty()) {
				return Long.parseLong(f[0]) / 1000;
			}
		}
		throw new IllegalArgumentException("No CPU usage in " + content);
	}

	/**
	 * The fields of {@code /proc/PID/stat} after the command's closing parenthesis (which
	 * may itself hold spaces and parentheses): index 0 is the state, 1 the parent's pid,
	 * 11 utime, 12 stime, 13 cutime, 14 cstime.
	 */
	static String[] statFields(String stat) {
		return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
	}

	/** utime + stime + cutime + cstime of one {@code /proc/PID/stat}, in microseconds. */
	static long statMicros(String[] fields, boolean withWaitedChildren) {
		long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		if (withWaitedChildren) {
			ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
		}
		return ticks * MICROS_PER_TICK;
	}

	private static long treeMicros(long root) throws IOException {
		Map<Long, List<Long>> children = new HashMap<>();
		Map<Long, String[]> stats = new HashMap<>();
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"),
				(p) -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
			for (Path process : processes) {
				try {
					String[] fields = statFields(Files.readString(process.resolve("stat"), StandardCharsets.US_ASCII));
					long pid = Long.parseLong(process.getFileName().toString());
					stats.put(pid, fields);
					children.computeIfAbsent(Long.parseLong(fields[1]), (k) -> new ArrayList<>()).add(pid);
				}
				catch (IOException ex) {
					// It ended while the list was read.
				}
			}
		}
		if (!stats.containsKey(root)) {
			return -1;
		}
		long micros = 0;
		Deque<Long> todo = new ArrayDeque<>(List.of(root));
		while (!todo.isEmpty()) {
			long pid = todo.pop();
			micros += statMicros(stats.get(pid), true);
			children.getOrDefault(pid, List.of()).forEach(todo::push);
		}
		return micros;
	}

	@Override
	public String toString() {
		return this.source.isEmpty() ? "none" : this.source;
	}

}
