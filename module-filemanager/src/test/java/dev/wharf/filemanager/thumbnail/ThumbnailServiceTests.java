package dev.wharf.filemanager.thumbnail;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link ThumbnailService}: the memory cache, shared computations, a full pool,
 * thumbnails kept in the mount ({@link ThumbnailStore}: across a restart, invalidated by
 * a change, invisible, swept), and the background making after an upload.
 */
class ThumbnailServiceTests {

	private final MemoryStorage memory = new MemoryStorage("test", 64 << 20);

	private final Mount mount = new Mount("m", "memory", this.memory);

	private final AtomicInteger reads = new AtomicInteger();

	private final AtomicInteger stats = new AtomicInteger();

	private final Sinks.Empty<Void> gate = Sinks.empty();

	/**
	 * The user's view of the mount: counts reads and stats; a stat of {@code /gate.jpg}
	 * waits for the gate.
	 */
	private final Storage storage = (Storage) Proxy.newProxyInstance(getClass().getClassLoader(),
			new Class<?>[] { Storage.class }, (proxy, method, args) -> {
				if (method.getName().equals("read")) {
					this.reads.incrementAndGet();
				}
				if (method.getName().equals("stat")) {
					this.stats.incrementAndGet();
					if (args[0].toString().equals("/gate.jpg")) {
						return this.gate.asMono().then(this.memory.stat((StoragePath) args[0]));
					}
				}
				return method.invoke(this.memory, args);
			});

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private Instant now = Instant.now();

	private ThumbnailService service = service(8 << 20, null);

	@AfterEach
	void close() {
		this.service.close();
	}

	private ThumbnailService service(long cacheBytes, ThumbnailStore store) {
		return new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 50 << 20, cacheBytes, store,
				Schedulers.newBoundedElastic(2, 64, "test-thumbnail"),
				new ThumbnailSlots(2, 4096, Duration.ofSeconds(60)), this.meters);
	}

	private ThumbnailStore store() {
		Clock clock = new Clock() {

			@Override
			public Instant instant() {
				return ThumbnailServiceTests.this.now;
			}

			@Override
			public java.time.ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(java.time.ZoneId zone) {
				return this;
			}

		};
		return new ThumbnailStore(200, List.of(this.mount), Duration.ofDays(30), Duration.ofDays(1), clock);
	}

	private FileEntry write(String name, byte[] image) {
		return this.memory.write(StoragePath.parse(name), content(image), WriteOptions.replace()).block(TIMEOUT);
	}

	private void awaitKept(ThumbnailStore store, FileEntry entry) {
		await().atMost(TIMEOUT).until(() -> kept(store, entry));
	}

	private boolean kept(ThumbnailStore store, FileEntry entry) {
		return this.memory.stat(store.location(entry))
			.onErrorResume(NotFoundException.class, missing -> Mono.empty())
			.blockOptional(TIMEOUT)
			.isPresent();
	}

	private double count(String source) {
		return this.meters.get("wharf.filemanager.thumbnails").tag("source", source).counter().count();
	}

	private byte[] jpeg(Thumbnail thumbnail) {
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
		return ((Thumbnail.Image) thumbnail).jpeg();
	}

	@Test
	void aThumbnailIsMadeOnceAndThenServedFromTheCache() {
		FileEntry entry = write("/a.jpg", Images.image(1200, 800, "jpg", false));
		List<Mono<Thumbnail>> requests = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			requests.add(this.service.thumbnail(this.mount, this.storage, entry));
		}
		// Concurrent requests share one computation.
		List<Thumbnail> thumbnails = Flux.merge(requests).collectList().block(TIMEOUT);
		assertThat(thumbnails).hasSize(8).allSatisfy(t -> assertThat(t).isInstanceOf(Thumbnail.Image.class));
		assertThat(this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Image.class);
		assertThat(this.reads.get()).isEqualTo(1);
		assertThat(this.service.cachedCount()).isEqualTo(1);
		assertThat(count("made")).isEqualTo(1);
		assertThat(count("memory")).isEqualTo(8);
	}

	@Test
	void aChangedFileGetsANewThumbnail() {
		FileEntry first = write("/b.png", Images.image(300, 300, "png", false));
		this.service.thumbnail(this.mount, this.storage, first).block(TIMEOUT);
		FileEntry second = write("/b.png", Images.image(600, 300, "png", false));
		Thumbnail thumbnail = this.service.thumbnail(this.mount, this.storage, second).block(TIMEOUT);
		assertThat(this.reads.get()).isEqualTo(2);
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
	}

	@Test
	void refusalsAreCachedAndTooLargeFilesAreNotEvenRead() {
		FileEntry bomb = write("/bomb.png", Images.pngBomb());
		assertThat(this.service.thumbnail(this.mount, this.storage, bomb).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.service.thumbnail(this.mount, this.storage, bomb).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.reads.get()).isEqualTo(1);
		this.service.close();
		this.service = new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 1000, 8 << 20, null,
				Schedulers.newBoundedElastic(1, 1, "test-small"), new ThumbnailSlots(1, 4096, Duration.ofSeconds(60)),
				this.meters);
		FileEntry large = write("/large.jpg", Images.image(1000, 1000, "jpg", false));
		assertThat(this.service.thumbnail(this.mount, this.storage, large).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.reads.get()).isEqualTo(1);
	}

	@Test
	void withoutACacheEveryRequestReads() {
		this.service.close();
		this.service = service(0, null);
		FileEntry entry = write("/c.jpg", Images.image(500, 500, "jpg", false));
		this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT);
		this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT);
		assertThat(this.reads.get()).isEqualTo(2);
		assertThat(count("made")).isEqualTo(2);
	}

	@Test
	void aThumbnailKeptInTheMountOutlivesTheServiceAndServesTheNextOne() {
		this.service.close();
		ThumbnailStore store = store();
		this.service = service(8 << 20, store);
		FileEntry entry = write("/kept.jpg", Images.image(1600, 1200, "jpg", false));
		byte[] made = jpeg(this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT));
		StoragePath kept = store.location(entry);
		assertThat(kept.toString()).matches("/\\.wharf/thumbnails/[0-9a-f]{2}/[0-9a-f]{32}\\.jpg")
			.startsWith("/.wharf/thumbnails/" + kept.name().substring(0, 2) + "/");
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(this.memory.stat(kept).block(TIMEOUT).size()).isEqualTo(made.length));
		// A restart: a new service, its memory cache empty. The source is not read again.
		this.service.close();
		this.service = service(8 << 20, store());
		byte[] loaded = jpeg(this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT));
		assertThat(loaded).isEqualTo(made);
		assertThat(this.reads.get()).isEqualTo(1);
		assertThat(count("made")).isEqualTo(1);
		assertThat(count("mount")).isEqualTo(1);
		// Then from memory.
		this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT);
		assertThat(count("mount")).isEqualTo(1);
		assertThat(count("memory")).isEqualTo(1);
	}

	@Test
	void aChangedFileIsNeverServedItsOldKeptThumbnail() {
		this.service.close();
		ThumbnailStore store = store();
		this.service = service(0, store);
		FileEntry first = write("/changed.jpg", Images.image(1600, 1200, "jpg", false));
		byte[] old = jpeg(this.service.thumbnail(this.mount, this.storage, first).block(TIMEOUT));
		awaitKept(store, first);
		FileEntry second = write("/changed.jpg", Images.image(1200, 1200, "jpg", false));
		assertThat(store.location(second)).isNotEqualTo(store.location(first));
		byte[] now = jpeg(this.service.thumbnail(this.mount, this.storage, second).block(TIMEOUT));
		assertThat(now).isNotEqualTo(old);
		assertThat(this.reads.get()).isEqualTo(2);
		assertThat(count("mount")).isZero();
	}

	@Test
	void keptThumbnailsAreInvisibleAndUnaddressable() {
		this.service.close();
		ThumbnailStore store = store();
		this.service = service(0, store);
		FileEntry entry = write("/seen.jpg", Images.image(800, 600, "jpg", false));
		this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT);
		awaitKept(store, entry);
		// What every protocol lists (ls, FTP's LIST, the static sites) and how every
		// protocol parses a path.
		assertThat(this.memory.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("seen.jpg");
		assertThatExceptionOfType(InvalidStoragePathException.class)
			.isThrownBy(() -> StoragePath.parse(store.location(entry).toString()));
	}

	@Test
	void theSweepDeletesThumbnailsMadeLongerThanTheExpiryAgo() {
		this.service.close();
		ThumbnailStore store = store();
		this.service = service(0, store);
		FileEntry entry = write("/old.jpg", Images.image(800, 600, "jpg", false));
		this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT);
		StoragePath kept = store.location(entry);
		awaitKept(store, entry);
		int shard = Integer.parseInt(kept.name().substring(0, 2), 16);
		this.now = Instant.now().plus(Duration.ofDays(29));
		assertThat(store.sweep(this.mount, shard).block(TIMEOUT)).isZero();
		assertThat(store.sweep(this.mount, (shard + 1) % ThumbnailStore.SHARDS).block(TIMEOUT)).isZero();
		this.now = Instant.now().plus(Duration.ofDays(31));
		assertThat(store.sweep(this.mount, (shard + 1) % ThumbnailStore.SHARDS).block(TIMEOUT)).isZero();
		assertThat(store.sweep(this.mount, shard).block(TIMEOUT)).isEqualTo(1);
		assertThatExceptionOfType(NotFoundException.class).isThrownBy(() -> this.memory.stat(kept).block(TIMEOUT));
		// The file itself stays; its thumbnail is made again when next asked for.
		assertThat(this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Image.class);
		assertThat(count("made")).isEqualTo(2);
	}

	@Test
	void aMountThatLogsInAsEachUserKeepsNothing() {
		this.service.close();
		Storage passthrough = new ForwardingStorage(this.memory) {

			@Override
			public boolean needsUserCredentials() {
				return true;
			}

		};
		Mount perUser = new Mount("p", "memory", passthrough);
		ThumbnailStore store = new ThumbnailStore(200, List.of(perUser), Duration.ofDays(30), Duration.ofDays(1),
				Clock.systemUTC());
		this.service = service(0, store);
		FileEntry entry = write("/private.jpg", Images.image(800, 600, "jpg", false));
		this.service.thumbnail(perUser, this.storage, entry).block(TIMEOUT);
		this.service.thumbnail(perUser, this.storage, entry).block(TIMEOUT);
		assertThat(count("made")).isEqualTo(2);
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> this.memory.stat(ThumbnailStore.FOLDER).block(TIMEOUT));
	}

	@Test
	void anUploadedImageGetsItsThumbnailInTheBackground() {
		this.service.close();
		ThumbnailStore store = store();
		this.service = service(8 << 20, store);
		FileEntry entry = write("/uploaded.JPG", Images.image(1600, 1200, "jpg", false));
		write("/notes.txt", "not an image".getBytes());
		this.service.prefetch(this.mount, this.storage, StoragePath.parse("/notes.txt"));
		this.service.prefetch(this.mount, this.storage, entry.path());
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(count("made")).isEqualTo(1);
			assertThat(kept(store, entry)).isTrue();
		});
		// The first view finds it made; the text file was never even looked at.
		assertThat(this.service.thumbnail(this.mount, this.storage, entry).block(TIMEOUT))
			.isInstanceOf(Thumbnail.Image.class);
		assertThat(count("made")).isEqualTo(1);
		assertThat(count("memory")).isEqualTo(1);
		assertThat(this.reads.get()).isEqualTo(1);
		assertThat(this.stats.get()).isEqualTo(1);
	}

	@Test
	void backgroundThumbnailsWaitInABoundedQueueAndNeverHoldUpTheUpload() {
		write("/gate.jpg", Images.image(64, 64, "jpg", false));
		int uploads = ThumbnailService.MAX_PREFETCHES + 100;
		for (int i = 0; i < uploads; i++) {
			write("/burst-" + i + ".png", Images.image(16, 16, "png", false));
		}
		// The first waits (its stat does not answer), the rest queue until the queue is
		// full, then are dropped:
		// each call returns at once.
		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
			this.service.prefetch(this.mount, this.storage, StoragePath.parse("/gate.jpg"));
			for (int i = 0; i < uploads; i++) {
				this.service.prefetch(this.mount, this.storage, StoragePath.parse("/burst-" + i + ".png"));
			}
		});
		assertThat(this.stats.get()).isEqualTo(1);
		this.gate.tryEmitEmpty();
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(count("made")).isGreaterThanOrEqualTo(ThumbnailService.MAX_PREFETCHES));
		await().during(Duration.ofMillis(300)).atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(count("made")).isBetween((double) ThumbnailService.MAX_PREFETCHES,
					ThumbnailService.MAX_PREFETCHES + 2.0);
			assertThat(this.stats.get()).isEqualTo((int) count("made"));
		});
	}

}
