package dev.wharf.core.storage.memory;

import java.nio.file.Path;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Storage;

/**
 * The storage contract against the {@code memory} backend.
 */
class MemoryStorageContractTests extends AbstractStorageContractTests {

	@Override
	protected Storage createStorage(Path tempDir) {
		return new MemoryStorage("test", 256L * 1024 * 1024);
	}

}
