package dev.wharf.core.storage.local;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Properties of a {@code local} mount.
 *
 * @param root folder on this host that the mount exposes; created if missing
 * @param syncWrites whether a written file is flushed to disk before it becomes visible,
 * so that an acknowledged upload survives a power loss; without it a power loss may leave
 * recently written files short
 * @param ioThreads most threads doing blocking file I/O for this mount; 0 means
 * {@value #IO_THREADS} if set, else {@value #THREADS_PER_CPU} per CPU, at least
 * {@value #MIN_DEFAULT_IO_THREADS}
 */
public record LocalStorageProperties(@Nullable String root, @DefaultValue("true") boolean syncWrites,
		@DefaultValue("0") int ioThreads) {

	/**
	 * The fewest threads a mount gets by default. Not tied to the CPUs: a file write
	 * waits in the kernel (page allocation, the memory group's reclaim, writeback
	 * throttling, the inode's lock) without using a CPU, and every upload queued on a
	 * busy thread waits with it, its read buffers held and its connection's reads paused.
	 * 300 concurrent FTP uploads on 2 CPUs took 15 % longer and more CPU with 4 threads
	 * than with 16, and no less with 32 or 64 (docs/benchmarks/ftp.md, "Writer threads").
	 */
	static final int MIN_DEFAULT_IO_THREADS = 16;

	static final int THREADS_PER_CPU = 4;

	/**
	 * The property, for every local mount at once, that sets how many I/O threads a mount
	 * gets when it leaves {@code io-threads} at 0. The p128 JVM profile sets it, as a
	 * profile cannot name the mounts.
	 */
	public static final String IO_THREADS = "wharf.storage.local.io-threads";

	public LocalStorageProperties {
		if (root == null || root.isBlank()) {
			throw new InvalidConfigurationException("root", null, "a local mount needs a root folder");
		}
		if (root.indexOf('\0') >= 0) {
			throw new InvalidConfigurationException("root", null, "the root must not contain NUL");
		}
		if (ioThreads < 0 || ioThreads > 1024) {
			throw new InvalidConfigurationException("io-threads", Integer.toString(ioThreads), "must be 0 to 1024");
		}
	}

	/**
	 * The number of I/O threads to use.
	 * @param defaultThreads the threads of a mount that leaves {@code io-threads} at 0
	 * ({@link #IO_THREADS}), or 0 for the default
	 * @return the number of threads
	 */
	int effectiveIoThreads(int defaultThreads) {
		if (this.ioThreads > 0) {
			return this.ioThreads;
		}
		return (defaultThreads > 0) ? defaultThreads
				: Math.max(MIN_DEFAULT_IO_THREADS, THREADS_PER_CPU * Runtime.getRuntime().availableProcessors());
	}

}
