package dev.wharf.core.storage.s3;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.springframework.util.unit.DataSize;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Makes {@code s3} mounts on a test {@link S3ProxyProcess}: each on a folder of its own
 * in one bucket, so every test starts empty, and with S3's smallest part size so that a
 * few megabytes already make a multipart upload.
 */
final class S3TestMounts {

	static final String BUCKET = "wharf-test";

	static final DataSize PART_SIZE = DataSize.ofMegabytes(5);

	private static final AtomicInteger mounts = new AtomicInteger();

	private S3TestMounts() {
	}

	/** A fresh folder name in the bucket. */
	static String freshPrefix() {
		return "run/m" + mounts.incrementAndGet();
	}

	/** A mount on a fresh folder with S3's own limits but a given listing page size. */
	static S3Storage create(S3ProxyProcess server, int pageSize) {
		return create(server, freshPrefix(), pageSize);
	}

	/** A mount on a folder with S3's own limits but a given listing page size. */
	static S3Storage create(S3ProxyProcess server, String prefix, int pageSize) {
		S3StorageProperties properties = server.properties(BUCKET, prefix, PART_SIZE);
		S3Storage.Limits limits = S3Storage.Limits.of(properties);
		return S3StorageProvider.create("test", properties,
				new S3Storage.Limits(limits.partSize(), limits.partsInFlight(), limits.maxListEntries(), pageSize,
						limits.maxCopyPart(), limits.copyPartSize()));
	}

	/** Multipart uploads under a folder that were neither completed nor aborted. */
	static java.util.List<MultipartUpload> openUploads(S3ProxyProcess server, String prefix) {
		return server.client().listMultipartUploads(b -> b.bucket(BUCKET).prefix(prefix)).uploads();
	}

	/**
	 * Waits until no multipart upload is open under a folder (an abort after a cancel
	 * runs in the background).
	 */
	static void awaitNoOpenUploads(S3ProxyProcess server, String prefix) {
		Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(openUploads(server, prefix)).isEmpty());
	}

}
