package dev.wharf.core.storage.mount;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.ResolvableType;

/**
 * Every configured mount by name. Built once at start-up from
 * {@code wharf.storage.mounts}; with none configured it holds one {@code local} mount
 * named {@value #DEFAULT_MOUNT} on {@code ./data}. Closing it closes every storage.
 * Thread-safe and immutable after construction.
 */
public final class MountRegistry implements AutoCloseable {

	/** The mount that exists when none is configured. */
	public static final String DEFAULT_MOUNT = "data";

	private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

	private static final Bindable<Map<String, Map<String, Object>>> MOUNT_TREE = Bindable
		.of(ResolvableType.forClassWithGenerics(Map.class, ResolvableType.forClass(String.class),
				ResolvableType.forClassWithGenerics(Map.class, String.class, Object.class)));

	private static final Log logger = LogFactory.getLog(MountRegistry.class);

	private final Map<String, Mount> mounts;

	private MountRegistry(Map<String, Mount> mounts) {
		this.mounts = Collections.unmodifiableMap(mounts);
	}

	/**
	 * Builds the registry from configuration.
	 * @param binder binds {@code wharf.storage.mounts}
	 * @param providers one per mount type
	 * @param decorator wraps each storage, for metrics;
	 * {@code (mount, type, storage) -> storage} for none
	 * @return the registry
	 * @throws InvalidConfigurationException naming the property if a mount is
	 * misconfigured
	 */
	public static MountRegistry create(Binder binder, Collection<StorageProvider> providers, Decorator decorator) {
		Map<String, StorageProvider> byType = new TreeMap<>();
		for (StorageProvider provider : providers) {
			StorageProvider previous = byType.put(provider.type(), provider);
			if (previous != null) {
				throw new IllegalStateException("Two storage providers for type '" + provider.type() + "': "
						+ previous.getClass().getName() + " and " + provider.getClass().getName());
			}
		}
		// Every mount's properties as a plain tree: only the names and types are needed
		// here.
		Map<String, Map<String, Object>> configured = binder.bind(MountDefinition.PREFIX, MOUNT_TREE)
			.orElseGet(Map::of);
		if (configured.isEmpty()) {
			binder = new Binder(
					new MapConfigurationPropertySource(Map.of(MountDefinition.PREFIX + "." + DEFAULT_MOUNT + ".type",
							"local", MountDefinition.PREFIX + "." + DEFAULT_MOUNT + ".root", "./data")));
			configured = Map.of(DEFAULT_MOUNT, Map.of("type", "local"));
		}
		Map<String, Mount> mounts = new LinkedHashMap<>();
		try {
			for (Map.Entry<String, Map<String, Object>> configuredMount : new TreeMap<>(configured).entrySet()) {
				String name = configuredMount.getKey();
				Object typeValue = configuredMount.getValue().get("type");
				String type = (typeValue instanceof String text) ? text : null;
				if (!NAME.matcher(name).matches()) {
					throw new InvalidConfigurationException(MountDefinition.PREFIX + "." + name, null,
							"a mount name is 1 to 64 lower-case letters, digits, '-' or '_', starting with a letter or digit");
				}
				if (type == null || type.isBlank()) {
					throw new InvalidConfigurationException(MountDefinition.PREFIX + "." + name + ".type", null,
							"every mount needs a type; known types: " + String.join(", ", byType.keySet()));
				}
				StorageProvider provider = byType.get(type);
				if (provider == null) {
					throw new InvalidConfigurationException(MountDefinition.PREFIX + "." + name + ".type", type,
							"unknown mount type; known types: " + String.join(", ", byType.keySet()));
				}
				Storage storage = provider.create(new MountDefinition(name, type, binder));
				mounts.put(name, new Mount(name, type, decorator.decorate(name, type, storage)));
				logger.info("Mount '" + name + "' (" + type + ") is ready");
			}
		}
		catch (RuntimeException ex) {
			mounts.values().forEach(mount -> mount.storage().close());
			throw ex;
		}
		return new MountRegistry(mounts);
	}

	/**
	 * A registry of given mounts, for tests and embedding.
	 * @param mounts the mounts
	 * @return the registry
	 */
	public static MountRegistry of(Mount... mounts) {
		Map<String, Mount> map = new LinkedHashMap<>();
		for (Mount mount : mounts) {
			map.put(mount.name(), mount);
		}
		return new MountRegistry(map);
	}

	/**
	 * Looks a mount up.
	 * @param name the mount's name
	 * @return the mount, or empty
	 */
	public Optional<Mount> find(String name) {
		return Optional.ofNullable(this.mounts.get(name));
	}

	/**
	 * Looks a mount up at run time.
	 * @param name the mount's name
	 * @return the mount
	 * @throws NotFoundException if there is none
	 */
	public Mount get(String name) {
		Mount mount = this.mounts.get(name);
		if (mount == null) {
			throw new NotFoundException("No mount named '" + name + "'");
		}
		return mount;
	}

	/**
	 * Looks up a mount that a module's configuration names, failing start-up clearly if
	 * it does not exist.
	 * @param property the module's property, such as {@code wharf.buildcache.mount}
	 * @param name its value
	 * @return the mount
	 * @throws InvalidConfigurationException if there is no such mount
	 */
	public Mount require(String property, String name) {
		Mount mount = this.mounts.get(name);
		if (mount == null) {
			throw new InvalidConfigurationException(property, name,
					"no such mount; configured mounts: " + String.join(", ", this.mounts.keySet()));
		}
		return mount;
	}

	/** Every mount, sorted by name. */
	public Collection<Mount> all() {
		return this.mounts.values();
	}

	@Override
	public void close() {
		for (Mount mount : this.mounts.values()) {
			try {
				mount.storage().close();
			}
			catch (RuntimeException ex) {
				logger.warn("Closing mount '" + mount.name() + "' failed", ex);
			}
		}
	}

	/** Wraps the storage of each mount as it is created. */
	@FunctionalInterface
	public interface Decorator {

		/** Wraps nothing. */
		Decorator NONE = (mount, type, storage) -> storage;

		/**
		 * Wraps one mount's storage.
		 * @param mount the mount's name
		 * @param type its type
		 * @param storage its storage
		 * @return the storage to use
		 */
		Storage decorate(String mount, String type, Storage storage);

	}

}
