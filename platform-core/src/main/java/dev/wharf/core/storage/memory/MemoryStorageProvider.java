package dev.wharf.core.storage.memory;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;

/** Makes {@code memory} mounts ({@link MemoryStorageProperties}). */
public final class MemoryStorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "memory";

	@Override
	public String type() {
		return TYPE;
	}

	@Override
	public Storage create(MountDefinition definition) {
		MemoryStorageProperties properties = definition.bind(MemoryStorageProperties.class);
		return new MemoryStorage(definition.name(), properties.maxSize().toBytes());
	}

}
