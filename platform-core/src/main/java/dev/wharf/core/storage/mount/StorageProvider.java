package dev.wharf.core.storage.mount;

import dev.wharf.core.storage.Storage;

/**
 * Makes {@link Storage} instances of one mount type
 * ({@code wharf.storage.mounts.<name>.type}). Each backend contributes one as a bean; the
 * {@link MountRegistry} picks the provider by type.
 *
 * <p>
 * Implementations are thread-safe; {@link #create} is called once per mount during
 * start-up, on the main thread, and may block (to open connections or create folders).
 */
public interface StorageProvider {

	/** The value of {@code type} this provider handles, such as {@code local}. */
	String type();

	/**
	 * Creates the storage of one mount.
	 * @param definition the mount's name and its properties
	 * @return the storage, never {@code null}
	 * @throws dev.wharf.core.config.InvalidConfigurationException if a property is
	 * invalid
	 */
	Storage create(MountDefinition definition);

}
