package dev.wharf.filemanager.thumbnail;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.storage.s3.S3StorageProvider;
import dev.wharf.core.testsupport.JvmTempFolder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.FileSystemUtils;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.s3.model.S3Object;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Thumbnails kept in an {@code s3} mount (S3Proxy on 127.0.0.1) by two replicas, each
 * with its own storage on the same bucket and folder and no memory cache: what one makes
 * the other reads from the bucket instead of making it again, the reserved folder is
 * never listed nor addressable, and a replica's sweep deletes expired thumbnails through
 * S3's listing.
 */
class ThumbnailsOnS3Tests {

	private static final String BUCKET = "photos";

	private static final Path ROOT = JvmTempFolder.create("wharf-thumbnails-s3");

	private static S3ProxyProcess s3;

	private final String prefix = "team-" + System.nanoTime();

	private final Replica first = new Replica(Clock.systemUTC());

	private final Replica second = new Replica(Clock.offset(Clock.systemUTC(), Duration.ofDays(31)));

	@BeforeAll
	static void startS3() throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.FILESYSTEM, ROOT.resolve("s3"));
		s3.createBucket(BUCKET);
	}

	@AfterAll
	static void stopS3() throws IOException {
		if (s3 != null) {
			s3.close();
		}
		FileSystemUtils.deleteRecursively(ROOT);
	}

	@AfterEach
	void closeReplicas() {
		this.first.close();
		this.second.close();
	}

	/** The keys of the thumbnails kept in the bucket. */
	private List<String> keptKeys() {
		return s3.client()
			.listObjectsV2(b -> b.bucket(BUCKET).prefix(this.prefix + "/.wharf/thumbnails/"))
			.contents()
			.stream()
			.map(S3Object::key)
			// Not the folders' marker objects, which S3 mounts keep for empty folders.
			.filter(key -> key.endsWith(".jpg"))
			.toList();
	}

	@Test
	void aThumbnailOneReplicaMadeIsReadByTheOtherFromTheBucketAndNeverListed() {
		FileEntry written = this.first.storage
			.write(StoragePath.parse("/photo.jpg"), content(Images.image(1920, 1080, "jpg", false)),
					WriteOptions.replace())
			.block(TIMEOUT);
		byte[] made = ((Thumbnail.Image) this.first.service.thumbnail(this.first.mount, this.first.storage, written)
			.block(TIMEOUT)).jpeg();
		assertThat(this.first.count("made")).isEqualTo(1);
		await().atMost(TIMEOUT).until(() -> keptKeys().size() == 1);
		assertThat(keptKeys().get(0)).matches(this.prefix + "/\\.wharf/thumbnails/[0-9a-f]{2}/[0-9a-f]{32}\\.jpg");

		// The other replica stats the file itself, as a request to it would.
		FileEntry seen = this.second.storage.stat(StoragePath.parse("/photo.jpg")).block(TIMEOUT);
		byte[] read = ((Thumbnail.Image) this.second.service.thumbnail(this.second.mount, this.second.storage, seen)
			.block(TIMEOUT)).jpeg();
		assertThat(read).isEqualTo(made);
		assertThat(this.second.count("mount")).isEqualTo(1);
		assertThat(this.second.count("made")).isZero();

		for (Replica replica : List.of(this.first, this.second)) {
			assertThat(replica.storage.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
				.containsExactly("photo.jpg");
		}
		assertThatExceptionOfType(InvalidStoragePathException.class)
			.isThrownBy(() -> StoragePath.parse("/.wharf/thumbnails"));
	}

	@Test
	void aReplicasSweepDeletesExpiredThumbnailsThroughTheListing() {
		FileEntry written = this.first.storage
			.write(StoragePath.parse("/old.jpg"), content(Images.image(800, 600, "jpg", false)), WriteOptions.replace())
			.block(TIMEOUT);
		this.first.service.thumbnail(this.first.mount, this.first.storage, written).block(TIMEOUT);
		await().atMost(TIMEOUT).until(() -> keptKeys().size() == 1);
		String key = keptKeys().get(0);
		int shard = Integer.parseInt(key.substring(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 3), 16);
		assertThat(this.first.store.sweep(this.first.mount, shard).block(TIMEOUT)).as("made just now").isZero();
		// The second replica's clock is 31 days ahead: past the 30 days' expiry.
		assertThat(this.second.store.sweep(this.second.mount, shard).block(TIMEOUT)).isOne();
		assertThat(keptKeys()).isEmpty();
		assertThat(this.first.storage.stat(StoragePath.parse("/old.jpg")).block(TIMEOUT)).isNotNull();
	}

	/**
	 * One replica: its own storage on the bucket's folder, its own store and service, no
	 * memory cache.
	 */
	private final class Replica implements AutoCloseable {

		final Storage storage;

		final Mount mount;

		final ThumbnailStore store;

		final ThumbnailService service;

		final SimpleMeterRegistry meters = new SimpleMeterRegistry();

		Replica(Clock clock) {
			Map<String, String> configuration = new HashMap<>(s3.mountProperties("photos", BUCKET));
			configuration.put("wharf.storage.mounts.photos.prefix", ThumbnailsOnS3Tests.this.prefix);
			this.storage = new S3StorageProvider().create(new MountDefinition("photos", S3StorageProvider.TYPE,
					new Binder(new MapConfigurationPropertySource(configuration))));
			this.mount = new Mount("photos", S3StorageProvider.TYPE, this.storage);
			this.store = new ThumbnailStore(200, List.of(), Duration.ofDays(30), Duration.ofDays(1), clock);
			this.service = new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 50 << 20, 0,
					this.store, Schedulers.newBoundedElastic(2, 64, "test-thumbnail"),
					new ThumbnailSlots(2, 4096, Duration.ofSeconds(60)), this.meters);
		}

		double count(String source) {
			return this.meters.get("wharf.filemanager.thumbnails").tag("source", source).counter().count();
		}

		@Override
		public void close() {
			this.service.close();
			this.storage.close();
		}

	}

}
