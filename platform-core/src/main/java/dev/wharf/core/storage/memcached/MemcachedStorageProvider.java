package dev.wharf.core.storage.memcached;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;

/** Makes {@code memcached} mounts ({@link MemcachedStorageProperties}). */
public final class MemcachedStorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "memcached";

	@Override
	public String type() {
		return TYPE;
	}

	@Override
	public Storage create(MountDefinition definition) {
		return new MemcachedStorage(definition.name(), definition.bind(MemcachedStorageProperties.class));
	}

}
