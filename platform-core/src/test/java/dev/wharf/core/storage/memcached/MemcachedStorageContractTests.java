package dev.wharf.core.storage.memcached;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Storage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.util.unit.DataSize;

/**
 * The storage contract against a real memcached started on a free port, for the
 * capabilities the {@code memcached} backend has (no folders, listing or moves). Each
 * test gets its own key prefix, so it starts from an empty store; chunks are small so
 * that the range and streaming tests cross many of them.
 */
class MemcachedStorageContractTests extends AbstractStorageContractTests {

	private static final AtomicInteger tests = new AtomicInteger();

	private static MemcachedProcess memcached;

	@BeforeAll
	static void startMemcached() throws Exception {
		memcached = MemcachedProcess.start(256);
	}

	@AfterAll
	static void stopMemcached() {
		if (memcached != null) {
			memcached.close();
		}
	}

	@Override
	protected Storage createStorage(Path tempDir) {
		return new MemcachedStorage("contract", properties(List.of(memcached.address()),
				"contract-" + tests.incrementAndGet() + ":", DataSize.ofKilobytes(64)));
	}

	@Override
	protected long largeFileSize() {
		return 16L * 1024 * 1024;
	}

	static MemcachedStorageProperties properties(List<String> servers, String prefix, DataSize chunkSize) {
		return new MemcachedStorageProperties(servers, prefix, chunkSize, DataSize.ofMegabytes(100), Duration.ZERO,
				Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(1));
	}

}
