package dev.wharf.core.storage.local;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Storage;

/**
 * The storage contract against the {@code local} backend on a real folder.
 */
class LocalStorageContractTests extends AbstractStorageContractTests {

	private Path root;

	@Override
	protected Storage createStorage(Path tempDir) throws Exception {
		this.root = Files.createDirectory(tempDir.resolve("root"));
		return new LocalStorage("test", this.root, false, 8);
	}

	@Override
	protected boolean createLinkOutOfRoot(String name, String secret) throws Exception {
		Path outside = Files.writeString(this.tempDir.resolve("secret.txt"), secret);
		Files.createSymbolicLink(this.root.resolve(name), outside);
		return true;
	}

	@Override
	protected boolean createLink(String link, String target) throws Exception {
		Files.createSymbolicLink(this.root.resolve(link.substring(1)), Path.of(target));
		return true;
	}

}
