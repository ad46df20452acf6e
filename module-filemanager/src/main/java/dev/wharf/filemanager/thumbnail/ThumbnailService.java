package dev.wharf.filemanager.thumbnail;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Conditions;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Thumbnails for {@code cat?thumbnail=true}: made by {@link ImageThumbnailer} on a bounded, named pool
 * (reading the source there too, so memory is bounded by the pool size times the source limit and the
 * decoding budget), and
 * kept in a memory cache bounded in bytes, keyed by mount, path, size and modification time, so a
 * changed file gets a new thumbnail and nothing stale is served. Refusals (not an image, an image bomb)
 * are cached too. Concurrent requests for the same thumbnail share one computation. When the pool and
 * its queue are full, requests get 503 with {@code Retry-After}. Thread-safe.
 */
public final class ThumbnailService implements AutoCloseable {

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

	private final ImageThumbnailer thumbnailer;

	private final int size;

	private final long maxSourceBytes;

	private final Scheduler workers;

	private final @Nullable AsyncCache<Key, Thumbnail> cache;

	/**
	 * Creates the service.
	 * @param thumbnailer makes the thumbnails
	 * @param maxSourceBytes the largest image file read
	 * @param cacheBytes the cache's size; 0 for no cache
	 * @param workers where thumbnails are made; owned (and disposed) by this service
	 */
	public ThumbnailService(ImageThumbnailer thumbnailer, long maxSourceBytes, long cacheBytes, Scheduler workers) {
		this.thumbnailer = thumbnailer;
		this.size = thumbnailer.size();
		this.maxSourceBytes = maxSourceBytes;
		this.workers = workers;
		this.cache = (cacheBytes > 0) ? Caffeine.newBuilder()
			.maximumWeight(cacheBytes)
			.<Key, Thumbnail>weigher((key, thumbnail) -> thumbnail.weight() + key.path().toString().length())
			.buildAsync() : null;
	}

	/**
	 * Answers a thumbnail request: {@code 304} if the client's copy is current, the JPEG, or a 4xx saying why
	 * the file has none.
	 * @param exchange the exchange
	 * @param mount the mount's name
	 * @param storage the user's view of the mount
	 * @param entry the file
	 * @return completes when answered
	 */
	public Mono<Void> respond(ServerWebExchange exchange, String mount, Storage storage, FileEntry entry) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		String etag = "\"t" + Long.toHexString(entry.size()) + '-' + Long.toHexString(entry.lastModified().toEpochMilli())
				+ '-' + this.size + '"';
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
	 * The thumbnail of a file, from the cache or made now.
	 * @param mount the mount's name
	 * @param storage the user's view of the mount
	 * @param entry the file
	 * @return the outcome; fails if the file cannot be read or the pool is full
	 */
	public Mono<Thumbnail> thumbnail(String mount, Storage storage, FileEntry entry) {
		AsyncCache<Key, Thumbnail> cache = this.cache;
		if (cache == null) {
			return make(storage, entry);
		}
		Key key = new Key(mount, entry.path(), entry.size(), entry.lastModified().toEpochMilli());
		return Mono.fromFuture(() -> cache.get(key, (k, executor) -> make(storage, entry).toFuture()), true);
	}

	private Mono<Thumbnail> make(Storage storage, FileEntry entry) {
		if (entry.size() > this.maxSourceBytes) {
			return Mono.just(new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT,
					"Image file too large to preview (" + (entry.size() >> 20) + " MB; at most "
							+ (this.maxSourceBytes >> 20) + " MB)"));
		}
		return Mono.fromCallable(() -> this.thumbnailer.make(readAll(storage, entry.path()))).subscribeOn(this.workers);
	}

	private byte[] readAll(Storage storage, StoragePath path) {
		DataBuffer joined = DataBufferUtils.join(storage.read(path, ByteRange.of(0, this.maxSourceBytes)),
				(int) Math.min(Integer.MAX_VALUE, this.maxSourceBytes)).block(READ_TIMEOUT);
		if (joined == null) {
			return new byte[0];
		}
		try {
			byte[] bytes = new byte[joined.readableByteCount()];
			joined.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(joined);
		}
	}

	/** How many thumbnails and refusals are cached, for tests. */
	long cachedCount() {
		AsyncCache<Key, Thumbnail> cache = this.cache;
		if (cache == null) {
			return 0;
		}
		cache.synchronous().cleanUp();
		return cache.synchronous().estimatedSize();
	}

	/** Stops the workers. */
	@Override
	public void close() {
		this.workers.dispose();
	}

	private record Key(String mount, StoragePath path, long size, long modified) {
	}

}
