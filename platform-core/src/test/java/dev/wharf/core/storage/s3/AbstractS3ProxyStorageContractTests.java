package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;

import dev.wharf.core.testsupport.JvmTempFolder;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage contract against S3Proxy, started once per test class with the store the
 * subclass names.
 */
abstract class AbstractS3ProxyStorageContractTests extends AbstractS3StorageContractTests {

	private static final Map<S3ProxyProcess.Backend, S3ProxyProcess> servers = new EnumMap<>(
			S3ProxyProcess.Backend.class);

	/** Where the server keeps objects. */
	protected abstract S3ProxyProcess.Backend backend();

	private S3ProxyProcess server() {
		synchronized (servers) {
			return servers.computeIfAbsent(backend(), backend -> {
				try {
					S3ProxyProcess server = S3ProxyProcess.start(backend, JvmTempFolder.create("wharf-s3proxy"));
					server.createBucket(S3TestMounts.BUCKET);
					return server;
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			});
		}
	}

	@AfterAll
	static void stopServers() {
		synchronized (servers) {
			servers.values().forEach(S3ProxyProcess::close);
			servers.clear();
		}
	}

	@Override
	protected S3Client serverClient() {
		return server().client();
	}

	@Override
	protected S3StorageProperties properties(String prefix) {
		return server().properties(S3TestMounts.BUCKET, prefix, S3TestMounts.PART_SIZE);
	}

}
