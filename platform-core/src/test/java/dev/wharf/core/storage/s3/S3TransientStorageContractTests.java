package dev.wharf.core.storage.s3;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage contract against S3Proxy keeping objects in memory, one server per class.
 */
class S3TransientStorageContractTests extends AbstractS3StorageContractTests {

	@TempDir
	static Path serverDir;

	private static S3ProxyProcess server;

	@BeforeAll
	static void startServer() throws Exception {
		server = S3ProxyProcess.start(S3ProxyProcess.Backend.TRANSIENT, serverDir);
		server.createBucket(S3TestMounts.BUCKET);
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Override
	protected S3Client serverClient() {
		return server.client();
	}

	@Override
	protected S3StorageProperties properties(String prefix) {
		return server.properties(S3TestMounts.BUCKET, prefix, S3TestMounts.PART_SIZE);
	}

}
