package dev.wharf.filemanager.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The file manager ({@code wharf.filemanager}).
 *
 * @param enabled whether the file manager is on
 * @param mounts the mounts it shows, each as a folder at the top level; empty for every
 * mount
 * @param maxUploadSize the largest file accepted by {@code save} and resumable uploads
 * @param maxListEntries the most entries a folder listing may have (a larger folder gets
 * 413)
 * @param maxConcurrentZips how many zip downloads are written at once (each holds a
 * thread)
 * @param maxZipsPerUser how many of those one user may have at once, so one user cannot
 * keep everyone else waiting; 0 for half of {@code max-concurrent-zips}, at least 1
 * @param thumbnails image previews
 * @param search name search
 * @param uploads resumable uploads
 */
@ConfigurationProperties("wharf.filemanager")
public record FileManagerProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<String> mounts,
		@DefaultValue("10GB") DataSize maxUploadSize, @DefaultValue("100000") int maxListEntries,
		@DefaultValue("4") int maxConcurrentZips, @DefaultValue("0") int maxZipsPerUser,
		@DefaultValue Thumbnails thumbnails, @DefaultValue Search search, @DefaultValue Uploads uploads) {

	private static final String PREFIX = "wharf.filemanager.";

	public FileManagerProperties {
		positive("max-upload-size", maxUploadSize.toBytes(), maxUploadSize.toString());
		positive("max-list-entries", maxListEntries, Integer.toString(maxListEntries));
		positive("max-concurrent-zips", maxConcurrentZips, Integer.toString(maxConcurrentZips));
		if (maxZipsPerUser < 0 || maxZipsPerUser > maxConcurrentZips) {
			throw new InvalidConfigurationException(PREFIX + "max-zips-per-user", Integer.toString(maxZipsPerUser),
					"must be 0 (half of max-concurrent-zips) to max-concurrent-zips (" + maxConcurrentZips + ")");
		}
	}

	/** The zips one user may have at once: as configured, or half of all, at least 1. */
	public int effectiveZipsPerUser() {
		return (this.maxZipsPerUser > 0) ? this.maxZipsPerUser : Math.max(1, this.maxConcurrentZips / 2);
	}

	/**
	 * Image previews ({@code cat?thumbnail=true}).
	 *
	 * @param size the short side of a thumbnail, in pixels
	 * @param cacheSize the memory the thumbnail cache may use, at most an eighth of the
	 * JVM's heap; 0 turns the cache off
	 * @param maxPixels the most pixels (width × height) an image may declare; larger
	 * images are refused before they are decoded (this bounds the time a decoding takes)
	 * @param maxDecodedSize the most memory one image may take to decode and resize: the
	 * image reader's buffers (libjpeg's outside the heap: every coefficient of a
	 * progressive JPEG), the decoded (subsampled) raster and its resized copy; images
	 * that need more even at the coarsest subsampling are refused before they are
	 * decoded. Unset: a quarter of the JVM's heap shared by the threads, at most 64 MB,
	 * so the small JVM profiles get less (p128: about 6 MB)
	 * @param maxFileSize the largest image file read
	 * @param threads threads that make thumbnails; 0 for one per CPU
	 * @param nativeJpeg whether JPEGs are decoded already scaled down, and thumbnails
	 * encoded, by libjpeg-turbo's TurboJPEG library where it is installed (Debian and
	 * Ubuntu: {@code libturbojpeg0}); without it, or without the library, ImageIO decodes
	 * the full-size image, which takes several times the CPU
	 * @param persistentCache whether thumbnails are also kept in their mount, in the
	 * reserved folder {@code .wharf/thumbnails/} (invisible to every protocol), where
	 * they outlive restarts and are shared by the replicas sharing the mount; kept 30
	 * days after they were made
	 * @param maxWaiting how many requests may wait for a thread to make their thumbnail
	 * (in the order they came, holding neither a thread nor the image meanwhile); past
	 * that, 503 with {@code Retry-After}
	 * @param maxWait how long a request may wait for a thread; past that, 503 with
	 * {@code Retry-After}
	 */
	public record Thumbnails(@DefaultValue("200") int size, @DefaultValue("32MB") DataSize cacheSize,
			@DefaultValue("100000000") long maxPixels, @Nullable DataSize maxDecodedSize,
			@DefaultValue("50MB") DataSize maxFileSize, @DefaultValue("0") int threads,
			@DefaultValue("true") boolean nativeJpeg, @DefaultValue("true") boolean persistentCache,
			@DefaultValue("4096") int maxWaiting, @DefaultValue("60s") Duration maxWait) {

		/** The most memory one decoding may take when none is configured. */
		private static final long DEFAULT_MAX_DECODED_BYTES = 64L << 20;

		public Thumbnails {
			if (size < 16 || size > 2048) {
				throw new InvalidConfigurationException(PREFIX + "thumbnails.size", Integer.toString(size),
						"must be from 16 to 2048 pixels");
			}
			if (cacheSize.toBytes() < 0) {
				throw new InvalidConfigurationException(PREFIX + "thumbnails.cache-size", cacheSize.toString(),
						"must not be negative");
			}
			positive("thumbnails.max-pixels", maxPixels, Long.toString(maxPixels));
			if (maxDecodedSize != null) {
				positive("thumbnails.max-decoded-size", maxDecodedSize.toBytes(), maxDecodedSize.toString());
			}
			positive("thumbnails.max-file-size", maxFileSize.toBytes(), maxFileSize.toString());
			if (threads < 0) {
				throw new InvalidConfigurationException(PREFIX + "thumbnails.threads", Integer.toString(threads),
						"must be 0 (one per CPU) or more");
			}
			if (maxWaiting < 0) {
				throw new InvalidConfigurationException(PREFIX + "thumbnails.max-waiting", Integer.toString(maxWaiting),
						"must not be negative");
			}
			positive("thumbnails.max-wait", maxWait.toMillis(), maxWait.toString());
		}

		/**
		 * The cache's size in bytes: as configured, but at most an eighth of the heap
		 * (small JVM profiles).
		 */
		public long effectiveCacheBytes() {
			long heap = Runtime.getRuntime().maxMemory();
			return (heap == Long.MAX_VALUE) ? this.cacheSize.toBytes() : Math.min(this.cacheSize.toBytes(), heap / 8);
		}

		/**
		 * The memory one image may take to decode: as configured, or else a quarter of
		 * the heap shared by the threads (every thread decoding at once still leaves the
		 * heap to the rest of Wharf), at most 64 MB.
		 */
		public long effectiveMaxDecodedBytes() {
			if (this.maxDecodedSize != null) {
				return this.maxDecodedSize.toBytes();
			}
			long heap = Runtime.getRuntime().maxMemory();
			long share = (heap == Long.MAX_VALUE) ? Long.MAX_VALUE : heap / 4 / effectiveThreads();
			return Math.min(DEFAULT_MAX_DECODED_BYTES, share);
		}

		/** The threads to start. */
		public int effectiveThreads() {
			return (this.threads > 0) ? this.threads : Math.max(1, Runtime.getRuntime().availableProcessors());
		}

	}

	/**
	 * Name search.
	 *
	 * @param timeBudget how long one search may walk the folders
	 * @param maxResults the most results of one search
	 */
	public record Search(@DefaultValue("2s") Duration timeBudget, @DefaultValue("1000") int maxResults) {

		public Search {
			positive("search.time-budget", timeBudget.toMillis(), timeBudget.toString());
			positive("search.max-results", maxResults, Integer.toString(maxResults));
		}

	}

	/**
	 * Resumable uploads.
	 *
	 * @param expiry how long an unfinished upload is kept after its last data
	 * @param segmentSize a long request body is stored in pieces of about this size, so a
	 * transfer that breaks keeps what arrived
	 * @param sweepInterval how often expired uploads are removed
	 */
	public record Uploads(@DefaultValue("24h") Duration expiry, @DefaultValue("8MB") DataSize segmentSize,
			@DefaultValue("1h") Duration sweepInterval) {

		public Uploads {
			positive("uploads.expiry", expiry.toMillis(), expiry.toString());
			positive("uploads.segment-size", segmentSize.toBytes(), segmentSize.toString());
			positive("uploads.sweep-interval", sweepInterval.toMillis(), sweepInterval.toString());
		}

	}

	private static void positive(String property, long value, String text) {
		if (value <= 0) {
			throw new InvalidConfigurationException(PREFIX + property, text, "must be more than 0");
		}
	}

}
