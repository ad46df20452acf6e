package dev.wharf.filemanager.thumbnail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Conditions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;

/**
 * Thumbnails for {@code cat?thumbnail=true}: made by {@link ImageThumbnailer} on a
 * bounded, named pool (reading the source there too, so memory is bounded by the pool
 * size times the source limit and the decoding budget), kept in the file's mount
 * ({@link ThumbnailStore}, if given) and in a memory cache bounded in bytes in front of
 * it, both keyed by mount, path, size and modification time, so a changed file gets a new
 * thumbnail and nothing stale is served. Refusals (not an image, an image bomb) are
 * cached in memory only. Concurrent requests for the same thumbnail share one
 * computation. A thumbnail to be made first waits for one of the {@link ThumbnailSlots}
 * (as many as the pool's threads), before its source is read, so a burst of requests
 * waits in line holding no thread and no image bytes; only past the most waiting, or
 * after waiting too long, do requests get 503 with {@code Retry-After}.
 *
 * <p>
 * {@link #prefetch} makes the thumbnail of a file just uploaded in the background, one at
 * a time, so its first view finds it made; it only queues the file (at most
 * {@value #MAX_PREFETCHES}, and drops it when the queue is full), so an upload's answer
 * never waits for it. Counts where thumbnails came from in
 * {@code wharf.filemanager.thumbnails} (tag {@code source}: {@code made}, {@code memory},
 * {@code mount}). Thread-safe.
 */
public final class ThumbnailService implements AutoCloseable {

	/** The most files waiting for a thumbnail made in the background. */
	static final int MAX_PREFETCHES = 256;

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

	/** Names whose thumbnails are made after an upload: the formats ImageIO reads. */
	private static final Set<String> IMAGE_EXTENSIONS = Set.of("jpg", "jpeg", "jpe", "png", "gif", "bmp");

	private static final Log logger = LogFactory.getLog(ThumbnailService.class);

	private final ImageThumbnailer thumbnailer;

	private final int size;

	private final long maxSourceBytes;

	private final Scheduler workers;

	private final ThumbnailSlots slots;

	private final @Nullable AsyncCache<Key, Thumbnail> cache;

	private final @Nullable ThumbnailStore store;

	private final Sinks.Many<Prefetch> prefetches = Sinks.many()
		.unicast()
		.onBackpressureBuffer(Queues.<Prefetch>get(MAX_PREFETCHES).get());

	private final Counter made;

	private final Counter fromMemory;

	private final Counter fromMount;

	/**
	 * Creates the service.
	 * @param thumbnailer makes the thumbnails
	 * @param maxSourceBytes the largest image file read
	 * @param cacheBytes the memory cache's size; 0 for none
	 * @param store where thumbnails are kept in their mounts, or {@code null} for
	 * nowhere; owned (and closed) by this service
	 * @param workers where thumbnails are made; owned (and disposed) by this service
	 * @param slots how many are made at once (at most the workers' threads, so the
	 * workers' queue never fills), and how many may wait for how long
	 * @param meters where the counts go
	 */
	public ThumbnailService(ImageThumbnailer thumbnailer, long maxSourceBytes, long cacheBytes,
			@Nullable ThumbnailStore store, Scheduler workers, ThumbnailSlots slots, MeterRegistry meters) {
		this.thumbnailer = thumbnailer;
		this.size = thumbnailer.size();
		this.maxSourceBytes = maxSourceBytes;
		this.workers = workers;
		this.slots = slots;
		this.store = store;
		this.cache = (cacheBytes > 0) ? Caffeine.newBuilder()
			.maximumWeight(cacheBytes)
			.<Key, Thumbnail>weigher((key, thumbnail) -> thumbnail.weight() + key.path().toString().length())
			.buildAsync() : null;
		this.made = counter(meters, "made");
		this.fromMemory = counter(meters, "memory");
		this.fromMount = counter(meters, "mount");
		// One at a time, after the requests already queued: a burst of uploads never
		// takes the whole pool.
		this.prefetches.asFlux()
			.concatMap(prefetch -> prefetch.storage()
				.stat(prefetch.path())
				.flatMap(entry -> thumbnail(prefetch.mount(), prefetch.storage(), entry))
				.onErrorResume(error -> {
					logger.debug("No thumbnail made after the upload of " + prefetch.path(), error);
					return Mono.empty();
				}), 1)
			.subscribe();
	}

	private static Counter counter(MeterRegistry meters, String source) {
		return Counter.builder("wharf.filemanager.thumbnails")
			.description("Thumbnails served, by where they came from")
			.tag("source", source)
			.register(meters);
	}

	/**
	 * Answers a thumbnail request: {@code 304} if the client's copy is current, the JPEG,
	 * or a 4xx saying why the file has none.
	 * @param exchange the exchange
	 * @param mount the mount
	 * @param storage the user's view of the mount
	 * @param entry the file
	 * @return completes when answered
	 */
	public Mono<Void> respond(ServerWebExchange exchange, Mount mount, Storage storage, FileEntry entry) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		String etag = "\"t" + Long.toHexString(entry.size()) + '-'
				+ Long.toHexString(entry.lastModified().toEpochMilli()) + '-' + this.size + '"';
		headers.set(HttpHeaders.ETAG, etag);
		headers.setLastModified(entry.lastModified());
		headers.set(HttpHeaders.CACHE_CONTROL, "private, no-cache");
		headers.set(ApiResponses.X_CONTENT_TYPE_OPTIONS, ApiResponses.NOSNIFF);
		HttpHeaders request = exchange.getRequest().getHeaders();
		if (Conditions.notModified(request, etag, entry.lastModified())) {
			response.setStatusCode(HttpStatus.NOT_MODIFIED);
			return response.setComplete();
		}
		return thumbnail(mount, storage, entry).flatMap(thumbnail -> {
			if (thumbnail instanceof Thumbnail.Image image) {
				headers.setContentType(MediaType.IMAGE_JPEG);
				headers.setContentLength(image.jpeg().length);
				if (exchange.getRequest().getMethod().name().equals("HEAD")) {
					return response.setComplete();
				}
				return response.writeWith(Mono.just(response.bufferFactory().wrap(image.jpeg())));
			}
			Thumbnail.Refused refused = (Thumbnail.Refused) thumbnail;
			return Mono.error(new ApiException(refused.status(), refused.message()));
		});
	}

	/**
	 * The thumbnail of a file: from the memory cache, kept in the mount, or made now (and
	 * then kept).
	 * @param mount the file's mount
	 * @param storage the user's view of the mount
	 * @param entry the file
	 * @return the outcome; fails if the file cannot be read, or with 503 if too many wait
	 * to be made
	 */
	public Mono<Thumbnail> thumbnail(Mount mount, Storage storage, FileEntry entry) {
		AsyncCache<Key, Thumbnail> cache = this.cache;
		if (cache == null) {
			return load(mount, storage, entry);
		}
		Key key = new Key(mount.name(), entry.path(), entry.size(), entry.lastModified().toEpochMilli());
		AtomicBoolean loaded = new AtomicBoolean();
		return Mono.fromFuture(() -> cache.get(key, (k, executor) -> {
			loaded.set(true);
			return load(mount, storage, entry).toFuture();
		}), true).doOnNext(thumbnail -> {
			if (!loaded.get()) {
				this.fromMemory.increment();
			}
		});
	}

	/**
	 * Makes the thumbnail of a file that was just written, in the background, unless it
	 * is not named as an image, is too large, or too many wait already. Returns at once.
	 * @param mount the file's mount
	 * @param storage the user's view of the mount
	 * @param path the file
	 */
	public void prefetch(Mount mount, Storage storage, StoragePath path) {
		String name = path.name();
		String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
		if (!IMAGE_EXTENSIONS.contains(extension) || this.workers.isDisposed()) {
			return;
		}
		Sinks.EmitResult result;
		synchronized (this.prefetches) {
			result = this.prefetches.tryEmitNext(new Prefetch(mount, storage, path));
		}
		if (result.isFailure()) {
			logger.debug("No thumbnail made after the upload of " + path + ": " + result);
		}
	}

	/** From the mount's kept thumbnails, or made (and kept). */
	private Mono<Thumbnail> load(Mount mount, Storage storage, FileEntry entry) {
		ThumbnailStore store = this.store;
		if (store == null) {
			return make(storage, entry);
		}
		return store.load(mount, entry).<Thumbnail>map(jpeg -> {
			this.fromMount.increment();
			return new Thumbnail.Image(jpeg);
		}).switchIfEmpty(Mono.defer(() -> make(storage, entry).doOnNext(thumbnail -> {
			if (thumbnail instanceof Thumbnail.Image image) {
				// Not waited for: the answer goes out while the thumbnail is written.
				store.save(mount, entry, image.jpeg()).subscribe();
			}
		})));
	}

	private Mono<Thumbnail> make(Storage storage, FileEntry entry) {
		if (entry.size() > this.maxSourceBytes) {
			return Mono.just(new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT, "Image file too large to preview ("
					+ (entry.size() >> 20) + " MB; at most " + (this.maxSourceBytes >> 20) + " MB)"));
		}
		Mono<Callable<Thumbnail>> work = storage.localFile(entry.path())
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.map(local -> () -> {
				byte[] source = local.isPresent() ? readLocal(storage, entry, local.get()) : readAll(storage, entry);
				Thumbnail thumbnail = this.thumbnailer.make(source);
				this.made.increment();
				return thumbnail;
			});
		// The slot before anything is read: a request waiting for one holds no bytes.
		return this.slots.run(work, this.workers);
	}

	/**
	 * A local file read at once on the worker, in one copy, rather than as buffers handed
	 * over from the mount's threads; through the storage after all if it fails (it
	 * changed meanwhile), which reports why.
	 */
	private byte[] readLocal(Storage storage, FileEntry entry, Path file) {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			byte[] bytes = new byte[(int) Math.min(channel.size(), this.maxSourceBytes)];
			ByteBuffer buffer = ByteBuffer.wrap(bytes);
			while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
				// Until full, or until the end of a file that shrank meanwhile.
			}
			return buffer.hasRemaining() ? Arrays.copyOf(bytes, buffer.position()) : bytes;
		}
		catch (IOException ex) {
			return readAll(storage, entry);
		}
	}

	/**
	 * A file read through its storage into one array of the size its entry gave, each
	 * buffer copied in and released as it comes: one copy of the image in memory, where
	 * joining the buffers first held two.
	 */
	private byte[] readAll(Storage storage, FileEntry entry) {
		SourceBytes source = new SourceBytes(Math.min(entry.size(), this.maxSourceBytes), this.maxSourceBytes);
		storage.read(entry.path(), ByteRange.of(0, this.maxSourceBytes)).doOnNext((buffer) -> {
			try {
				source.append(buffer);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}).then().block(READ_TIMEOUT);
		return source.bytes();
	}

	/**
	 * A buffer's bytes, the buffer released.
	 * @param buffer the buffer
	 * @return its readable bytes
	 */
	static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	/** How many thumbnails and refusals are cached in memory, for tests. */
	long cachedCount() {
		AsyncCache<Key, Thumbnail> cache = this.cache;
		if (cache == null) {
			return 0;
		}
		cache.synchronous().cleanUp();
		return cache.synchronous().estimatedSize();
	}

	/** Stops the background work and the workers. */
	@Override
	public void close() {
		synchronized (this.prefetches) {
			this.prefetches.tryEmitComplete();
		}
		ThumbnailStore store = this.store;
		if (store != null) {
			store.close();
		}
		this.workers.dispose();
	}

	private record Key(String mount, StoragePath path, long size, long modified) {
	}

	private record Prefetch(Mount mount, Storage storage, StoragePath path) {
	}

}
