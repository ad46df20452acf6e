package dev.wharf.core.storage.s3;

import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.storage.AbstractStorageContractTests;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.Storage;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The storage contract against the {@code s3} backend and a real S3 server, each test on
 * a folder of its own in one bucket; after every test no multipart upload may be left
 * open. A subclass says which server.
 */
abstract class AbstractS3StorageContractTests extends AbstractStorageContractTests {

	private String prefix;

	/** The server's own client, to look behind Wharf's back. */
	protected abstract S3Client serverClient();

	/**
	 * The properties of a mount on the server's test bucket.
	 * @param prefix the mount's folder in the bucket
	 * @return the properties, with S3's smallest part size
	 */
	protected abstract S3StorageProperties properties(String prefix);

	/**
	 * Keys per listing page; small values make every listing follow continuation tokens.
	 */
	protected int pageSize() {
		return 1000;
	}

	@Override
	protected Storage createStorage(Path tempDir) throws Exception {
		this.prefix = S3TestMounts.freshPrefix();
		S3StorageProperties properties = properties(this.prefix);
		S3Storage.Limits limits = S3Storage.Limits.of(properties);
		return S3StorageProvider.create("contract", properties,
				new S3Storage.Limits(limits.partSize(), limits.partsInFlight(), limits.maxListEntries(), pageSize(),
						limits.maxCopyPart(), limits.copyPartSize()));
	}

	/** The bucket the mounts use. */
	protected String bucket() {
		return S3TestMounts.BUCKET;
	}

	/** The current test's folder in the bucket. */
	protected String prefix() {
		return this.prefix;
	}

	@Test
	void saysWhatS3CanAndCannotDo() {
		assertThat(this.storage.capabilities())
			.contains(Capability.LIST, Capability.DIRECTORIES, Capability.RANGE_READ, Capability.ATOMIC_WRITE,
					Capability.MOVE, Capability.NATIVE_COPY)
			.doesNotContain(Capability.APPEND, Capability.ATOMIC_MOVE, Capability.LOCAL_FILE,
					Capability.MODIFICATION_TIME);
	}

	@AfterEach
	void noUploadIsLeftOpen() {
		if (this.prefix == null) {
			return;
		}
		Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(
					serverClient().listMultipartUploads(b -> b.bucket(bucket()).prefix(this.prefix + "/")).uploads())
				.isEmpty());
	}

}
