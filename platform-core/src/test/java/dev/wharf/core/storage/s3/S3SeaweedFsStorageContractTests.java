package dev.wharf.core.storage.s3;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The storage contract against SeaweedFS's S3 gateway, a second S3 server with its own
 * implementation (opt-in: {@code ./mvnw -Pseaweedfs} builds {@code weed} with Go first),
 * plus a folder of 100,000 objects listed completely across its pages.
 */
@Tag("seaweedfs")
class S3SeaweedFsStorageContractTests extends AbstractS3StorageContractTests {

	@TempDir
	static Path serverDir;

	private static SeaweedFsProcess server;

	@BeforeAll
	static void startServer() throws Exception {
		server = SeaweedFsProcess.start(serverDir, S3TestMounts.BUCKET);
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

	@Test
	void aFolderOfAHundredThousandObjectsListsCompletely() {
		int count = 100_000;
		String folder = prefix() + "/many/";
		IntStream.range(0, count)
			.parallel()
			.forEach(i -> server.client()
				.putObject(b -> b.bucket(S3TestMounts.BUCKET).key(folder + "f" + i), RequestBody.empty()));
		Set<String> names = ConcurrentHashMap.newKeySet();
		this.storage.list(StoragePath.parse("/many")).map(FileEntry::name).doOnNext(names::add).blockLast(TIMEOUT);
		assertThat(names).hasSize(count).contains("f0", "f99999");
	}

}
