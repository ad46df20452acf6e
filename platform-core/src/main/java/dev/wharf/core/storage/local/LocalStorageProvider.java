package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Makes {@code local} mounts ({@link LocalStorageProperties}); creates a missing root
 * folder and removes temporary files an earlier process abandoned.
 */
public final class LocalStorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "local";

	/**
	 * Temporary files untouched for this long are abandoned; a write in progress touches
	 * its file often.
	 */
	private static final Duration ABANDONED_AFTER = Duration.ofHours(1);

	private static final Log logger = LogFactory.getLog(LocalStorageProvider.class);

	@Override
	public String type() {
		return TYPE;
	}

	@Override
	public Storage create(MountDefinition definition) {
		LocalStorageProperties properties = definition.bind(LocalStorageProperties.class);
		int defaultThreads = defaultIoThreads(definition);
		Path root = Path.of(properties.root()).toAbsolutePath().normalize();
		try {
			if (!Files.exists(root)) {
				Files.createDirectories(root);
				logger.info("Mount '" + definition.name() + "': created the root folder " + root);
			}
			if (!Files.isDirectory(root)) {
				throw new InvalidConfigurationException(definition.prefix() + ".root", properties.root(),
						"is not a folder");
			}
			LocalStorage storage = new LocalStorage(definition.name(), root, properties.syncWrites(),
					properties.effectiveIoThreads(defaultThreads));
			storage.sweepTemporaryFiles(ABANDONED_AFTER)
				.subscribe(null, error -> logger
					.warn("Mount '" + definition.name() + "': could not sweep temporary files: " + error.getMessage()));
			return storage;
		}
		catch (IOException ex) {
			throw new InvalidConfigurationException(definition.prefix() + ".root", properties.root(),
					"cannot be used: " + ex.getMessage());
		}
	}

	/**
	 * The I/O threads of every mount that leaves {@code io-threads} at 0:
	 * {@value LocalStorageProperties#IO_THREADS}, 1 to 1024, or 0 (not set) for the
	 * default. Each thread costs its stack and bookkeeping, which the small profiles
	 * cannot spare for 16 threads per mount.
	 */
	private static int defaultIoThreads(MountDefinition definition) {
		return definition.sharedSetting(LocalStorageProperties.IO_THREADS, 0, 0, 1024);
	}

}
