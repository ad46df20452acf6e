package dev.wharf.core.storage.memory;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Properties of a {@code memory} mount.
 *
 * @param maxSize most bytes the mount holds, content and bookkeeping together; a write
 * that would pass it is refused
 */
public record MemoryStorageProperties(@DefaultValue("64MB") DataSize maxSize) {

	public MemoryStorageProperties {
		if (maxSize.toBytes() <= 0) {
			throw new InvalidConfigurationException("max-size", maxSize.toString(), "must be more than 0");
		}
		long heap = Runtime.getRuntime().maxMemory();
		if (heap != Long.MAX_VALUE && maxSize.toBytes() > heap / 4 * 3) {
			throw new InvalidConfigurationException("max-size", maxSize.toString(), "is more than 3/4 of the JVM's "
					+ "maximum heap (" + (heap >> 20) + " MB); lower it or give the JVM more memory (-Xmx)");
		}
	}

}
