package dev.wharf.core.security;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

/**
 * The external user store contract on one file in a state folder that the "replicas"
 * share.
 */
class FileExternalUserStoreContractTests extends AbstractExternalUserStoreContractTests {

	private static final Duration REFRESH = Duration.ofMillis(50);

	@TempDir
	Path state;

	private final List<FileExternalUserStore> stores = new ArrayList<>();

	@AfterEach
	void close() {
		this.stores.forEach(FileExternalUserStore::close);
	}

	@Override
	protected ExternalUserStore store() {
		FileExternalUserStore store = new FileExternalUserStore(this.state.resolve(FileExternalUserStore.FILE_NAME),
				Schedulers.newSingle("test-external-users"), REFRESH);
		this.stores.add(store);
		return store;
	}

	@Override
	protected Duration propagation() {
		return Duration.ofSeconds(5);
	}

}
