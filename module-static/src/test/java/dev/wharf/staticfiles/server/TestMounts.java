package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.local.LocalStorage;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;

/**
 * Real mounts for static server tests: a {@code local} mount on a folder and a
 * {@code memory} mount.
 */
final class TestMounts {

	private TestMounts() {
	}

	static Mount local(String name, Path root) {
		try {
			return new Mount(name, "local", new LocalStorage(name, root, false, 4));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static Mount memory(String name) {
		return new Mount(name, "memory", new MemoryStorage(name, 64L * 1024 * 1024));
	}

	/**
	 * Writes a file through the storage (creating its folders), as any protocol of Wharf
	 * would.
	 */
	static void write(Storage storage, String path, byte[] content) {
		StoragePath file = StoragePath.parse(path);
		StoragePath parent = file.parent();
		if (parent != null && !parent.isRoot()) {
			storage.createDirectories(parent).block(StorageTestSupport.TIMEOUT);
		}
		storage.write(file, StorageTestSupport.content(content), WriteOptions.replace())
			.block(StorageTestSupport.TIMEOUT);
	}

}
