package dev.wharf.core.storage.s3;

import java.nio.file.Path;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Storage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage contract against the {@code s3} backend and a real S3 server (S3Proxy keeping objects as
 * files, one per class), each test on a folder of its own in one bucket, listed in pages of three keys;
 * after every test no multipart upload may be left open.
 */
class S3FilesystemStorageContractTests extends AbstractStorageContractTests {

	@TempDir
	static Path serverDir;

	private static S3ProxyProcess server;

	private String prefix;

	@BeforeAll
	static void startServer() throws Exception {
		server = S3ProxyProcess.start(S3ProxyProcess.Backend.FILESYSTEM, serverDir);
		server.createBucket(S3TestMounts.BUCKET);
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Override
	protected Storage createStorage(Path tempDir) {
		this.prefix = S3TestMounts.freshPrefix();
		// Pages of three keys: every listing and recursive operation follows continuation tokens.
		return S3TestMounts.create(server, this.prefix, 3);
	}

	@Override
	protected long largeFileSize() {
		// Five parts of S3's smallest size: a buffered write would hold far more than 64 chunks.
		return 24L * 1024 * 1024;
	}

	@AfterEach
	void noUploadIsLeftOpen() {
		S3TestMounts.awaitNoOpenUploads(server, this.prefix);
	}

}
