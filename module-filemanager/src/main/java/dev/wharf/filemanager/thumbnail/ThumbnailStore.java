package dev.wharf.filemanager.thumbnail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.mount.Mount;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Thumbnails kept in their mount, under the reserved folder {@code .wharf/thumbnails/}
 * (never listed, never addressable by any protocol), so they outlive a restart and every
 * replica that shares the mount shares them. A thumbnail's name is a digest of what it
 * shows: the file's path, size and modification time, and the thumbnail's size; a changed
 * file has a new name, so nothing stale is ever read. The names are spread over 256
 * folders by their first two hex digits ({@code .wharf/thumbnails/3f/3f0c….jpg}).
 *
 * <p>
 * Old names stay behind when a file changes, moves or goes: a sweep walks one of the 256
 * folders of every mount per interval (one folder's listing, at most
 * {@value #MAX_DELETIONS_PER_SWEEP} deletions) and deletes thumbnails made longer than
 * the expiry ago, whether orphaned or not (a live one is made again on its next view).
 * Written through the mount's own storage, as Wharf's state is, since a user who may read
 * a file may see its thumbnail even without write access; never in a mount that logs in
 * as each user ({@link Storage#needsUserCredentials()}), which has no storage of its own
 * to write to. Failures only cost a thumbnail made again: they are logged at debug level.
 * Thread-safe; non-blocking.
 */
public final class ThumbnailStore implements AutoCloseable {

	/** Where the thumbnails are in a mount. */
	public static final StoragePath FOLDER = StoragePath.reserved("/.wharf/thumbnails");

	/** How many folders the names are spread over. */
	static final int SHARDS = 256;

	/** The most thumbnails one sweep of one folder deletes. */
	static final int MAX_DELETIONS_PER_SWEEP = 1000;

	/** A file larger than this is not a thumbnail of ours. */
	private static final int MAX_BYTES = 1 << 20;

	/**
	 * Changes whenever thumbnails are made differently, so older ones are no longer read.
	 */
	private static final String VERSION = "1";

	private static final Log logger = LogFactory.getLog(ThumbnailStore.class);

	private final int size;

	private final Duration expiry;

	private final Clock clock;

	private final AtomicInteger nextShard = new AtomicInteger();

	private final Disposable sweeper;

	/**
	 * Creates the store and starts sweeping.
	 * @param size the thumbnails' short side, in pixels (part of every name)
	 * @param mounts the mounts to sweep
	 * @param expiry how long a thumbnail is kept after it was made
	 * @param sweepInterval how often one folder of each mount is swept
	 * @param clock the time source
	 */
	public ThumbnailStore(int size, Collection<Mount> mounts, Duration expiry, Duration sweepInterval, Clock clock) {
		this.size = size;
		this.expiry = expiry;
		this.clock = clock;
		List<Mount> swept = List.copyOf(mounts);
		this.sweeper = Flux.interval(sweepInterval, sweepInterval).onBackpressureDrop().concatMap(tick -> {
			int shard = Math.floorMod(this.nextShard.getAndIncrement(), SHARDS);
			return Flux.fromIterable(swept).concatMap(mount -> sweep(mount, shard)).then();
		}, 1).subscribe();
	}

	/**
	 * Whether a mount can keep thumbnails.
	 * @param mount the mount
	 * @return {@code false} for a mount that logs in as each user
	 */
	static boolean keeps(Mount mount) {
		return !mount.storage().needsUserCredentials();
	}

	/**
	 * A kept thumbnail.
	 * @param mount the file's mount
	 * @param file the file, as {@link Storage#stat} gave it
	 * @return the JPEG, or empty if none is kept (or it cannot be read)
	 */
	Mono<byte[]> load(Mount mount, FileEntry file) {
		if (!keeps(mount)) {
			return Mono.empty();
		}
		Storage storage = mount.storage();
		return DataBufferUtils.join(storage.read(location(file), ByteRange.all()), MAX_BYTES)
			.map(ThumbnailService::bytes)
			.filter(JpegFrame::isJpeg)
			.onErrorResume(error -> {
				if (!(error instanceof NotFoundException)) {
					logger.debug("Cannot read a kept thumbnail in mount '" + mount.name() + "'", error);
				}
				return Mono.empty();
			});
	}

	/**
	 * Keeps a thumbnail, replacing any kept for the same name.
	 * @param mount the file's mount
	 * @param file the file, as {@link Storage#stat} gave it
	 * @param jpeg the thumbnail
	 * @return completes when written (or not: failures are logged and swallowed)
	 */
	Mono<Void> save(Mount mount, FileEntry file, byte[] jpeg) {
		if (!keeps(mount)) {
			return Mono.empty();
		}
		Storage storage = mount.storage();
		String name = name(file);
		StoragePath folder = FOLDER.resolve(name.substring(0, 2));
		StoragePath location = folder.resolve(name + ".jpg");
		Mono<FileEntry> write = Mono
			.defer(() -> storage.write(location, Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(jpeg)),
					WriteOptions.replace().withExpectedLength(jpeg.length)));
		return write
			.onErrorResume(NotFoundException.class,
					missing -> storage.capabilities().contains(Capability.DIRECTORIES)
							? storage.createDirectories(folder).then(write) : Mono.error(missing))
			.then()
			.onErrorResume(error -> {
				logger.debug("Cannot keep a thumbnail in mount '" + mount.name() + "'", error);
				return Mono.empty();
			});
	}

	/**
	 * Deletes the thumbnails of one folder that were made longer than the expiry ago.
	 * @param mount the mount
	 * @param shard the folder, 0 to 255
	 * @return how many were deleted
	 */
	Mono<Integer> sweep(Mount mount, int shard) {
		Storage storage = mount.storage();
		if (!keeps(mount) || !storage.capabilities().contains(Capability.LIST)) {
			return Mono.just(0);
		}
		Instant oldest = this.clock.instant().minus(this.expiry);
		return storage.list(FOLDER.resolve(shardName(shard)))
			.filter(entry -> !entry.isDirectory() && entry.lastModified().isBefore(oldest))
			.take(MAX_DELETIONS_PER_SWEEP)
			.concatMap(entry -> storage.delete(entry.path(), false)
				.thenReturn(1)
				.onErrorResume(NotFoundException.class, gone -> Mono.just(0)))
			.reduce(0, Integer::sum)
			.onErrorResume(error -> {
				if (!(error instanceof NotFoundException)) {
					logger.debug("Cannot sweep the kept thumbnails of mount '" + mount.name() + "'", error);
				}
				return Mono.just(0);
			});
	}

	/**
	 * Where a file's thumbnail is kept.
	 * @param file the file, as {@link Storage#stat} gave it
	 * @return the path, under {@link #FOLDER}
	 */
	StoragePath location(FileEntry file) {
		String name = name(file);
		return FOLDER.resolve(name.substring(0, 2)).resolve(name + ".jpg");
	}

	/** 128 bits of a digest of what the thumbnail shows, in hex. */
	private String name(FileEntry file) {
		String key = VERSION + '\n' + this.size + '\n' + file.size() + '\n' + file.lastModified().toEpochMilli() + '\n'
				+ file.path();
		return HexFormat.of().formatHex(sha256(key.getBytes(StandardCharsets.UTF_8)), 0, 16);
	}

	private static String shardName(int shard) {
		return HexFormat.of().toHexDigits((byte) shard);
	}

	private static byte[] sha256(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JDK has SHA-256", ex);
		}
	}

	/** Stops sweeping. */
	@Override
	public void close() {
		this.sweeper.dispose();
	}

}
