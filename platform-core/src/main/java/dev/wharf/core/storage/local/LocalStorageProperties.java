package dev.wharf.core.storage.local;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Properties of a {@code local} mount.
 *
 * @param root folder on this host that the mount exposes; created if missing
 * @param syncWrites whether a written file is flushed to disk before it becomes visible, so that an
 * acknowledged upload survives a power loss; without it a power loss may leave recently written files short
 * @param ioThreads most threads doing blocking file I/O for this mount; 0 means twice the CPU count, at least 4
 */
public record LocalStorageProperties(@Nullable String root, @DefaultValue("true") boolean syncWrites,
		@DefaultValue("0") int ioThreads) {

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

	/** The number of I/O threads to use. */
	int effectiveIoThreads() {
		return (this.ioThreads > 0) ? this.ioThreads : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
	}

}
