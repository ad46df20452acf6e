package dev.wharf.filemanager.thumbnail;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ThumbnailService}: the cache, shared computations, and a full pool.
 */
class ThumbnailServiceTests {

	private final MemoryStorage memory = new MemoryStorage("test", 64 << 20);

	private final AtomicInteger reads = new AtomicInteger();

	private final Storage storage = (Storage) Proxy.newProxyInstance(getClass().getClassLoader(),
			new Class<?>[] { Storage.class }, (proxy, method, args) -> {
				if (method.getName().equals("read")) {
					this.reads.incrementAndGet();
				}
				return method.invoke(this.memory, args);
			});

	private ThumbnailService service = new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 50 << 20, 8 << 20,
			Schedulers.newBoundedElastic(2, 64, "test-thumbnail"));

	@AfterEach
	void close() {
		this.service.close();
	}

	private FileEntry write(String name, byte[] image) {
		return this.memory.write(StoragePath.parse(name), content(image), WriteOptions.replace()).block(TIMEOUT);
	}

	@Test
	void aThumbnailIsMadeOnceAndThenServedFromTheCache() {
		FileEntry entry = write("/a.jpg", Images.image(1200, 800, "jpg", false));
		List<Mono<Thumbnail>> requests = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			requests.add(this.service.thumbnail("m", this.storage, entry));
		}
		// Concurrent requests share one computation.
		List<Thumbnail> thumbnails = Flux.merge(requests).collectList().block(TIMEOUT);
		assertThat(thumbnails).hasSize(8).allSatisfy(t -> assertThat(t).isInstanceOf(Thumbnail.Image.class));
		assertThat(this.service.thumbnail("m", this.storage, entry).block(TIMEOUT)).isInstanceOf(Thumbnail.Image.class);
		assertThat(this.reads.get()).isEqualTo(1);
		assertThat(this.service.cachedCount()).isEqualTo(1);
	}

	@Test
	void aChangedFileGetsANewThumbnail() {
		FileEntry first = write("/b.png", Images.image(300, 300, "png", false));
		this.service.thumbnail("m", this.storage, first).block(TIMEOUT);
		FileEntry second = write("/b.png", Images.image(600, 300, "png", false));
		Thumbnail thumbnail = this.service.thumbnail("m", this.storage, second).block(TIMEOUT);
		assertThat(this.reads.get()).isEqualTo(2);
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
	}

	@Test
	void refusalsAreCachedAndTooLargeFilesAreNotEvenRead() {
		FileEntry bomb = write("/bomb.png", Images.pngBomb());
		assertThat(this.service.thumbnail("m", this.storage, bomb).block(TIMEOUT)).isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.service.thumbnail("m", this.storage, bomb).block(TIMEOUT)).isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.reads.get()).isEqualTo(1);
		this.service.close();
		this.service = new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 1000, 8 << 20, Schedulers.newBoundedElastic(1, 1, "test-small"));
		FileEntry large = write("/large.jpg", Images.image(1000, 1000, "jpg", false));
		assertThat(this.service.thumbnail("m", this.storage, large).block(TIMEOUT)).isInstanceOf(Thumbnail.Refused.class);
		assertThat(this.reads.get()).isEqualTo(1);
	}

	@Test
	void withoutACacheEveryRequestReads() {
		this.service.close();
		this.service = new ThumbnailService(new ImageThumbnailer(200, 100_000_000, 16 << 20, true), 50 << 20, 0, Schedulers.newBoundedElastic(1, 8, "test-nocache"));
		FileEntry entry = write("/c.jpg", Images.image(500, 500, "jpg", false));
		this.service.thumbnail("m", this.storage, entry).block(TIMEOUT);
		this.service.thumbnail("m", this.storage, entry).block(TIMEOUT);
		assertThat(this.reads.get()).isEqualTo(2);
	}

}
