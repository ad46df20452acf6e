package dev.wharf.core.storage;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One storage backend as a mount sees it: files and folders under a root, addressed by
 * {@link StoragePath}. This is the SPI every backend implements and every protocol uses.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once without blocking; work starts on
 * subscription and nothing happens without one. Implementations that need blocking I/O
 * run it on their own bounded, named executor, never on the caller's thread, so callers
 * may be Netty event loops. Implementations are safe for concurrent use.
 *
 * <p>
 * <b>Nulls.</b> No argument may be {@code null}; no publisher emits {@code null}.
 *
 * <p>
 * <b>Buffers.</b> Every {@link DataBuffer} that {@link #read} emits belongs to the
 * subscriber, which must release it. {@link #write} takes ownership of every buffer of
 * its content and releases each one, also when it fails or is cancelled.
 *
 * <p>
 * <b>Errors.</b> Publishers fail with a {@link StorageException} subtype, whose
 * {@link StorageException#kind()} protocols map to their codes. An operation that needs a
 * {@link Capability} the backend lacks fails with {@link UnsupportedCapabilityException}.
 *
 * <p>
 * <b>Atomicity.</b> A {@link WriteMode#REPLACE} or {@link WriteMode#CREATE_NEW} write is
 * never visible half-done: until it completes, readers see the old content or nothing,
 * and a failed or cancelled write leaves nothing behind (where
 * {@link Capability#ATOMIC_WRITE} is missing, the backend says in its documentation what
 * a reader can see).
 */
public interface Storage extends AutoCloseable {

	/** The backend's abilities; constant for the life of the instance. */
	Set<Capability> capabilities();

	/**
	 * Describes one path.
	 * @param path the path
	 * @return the entry; fails with {@link NotFoundException} if there is nothing at the
	 * path
	 */
	Mono<FileEntry> stat(StoragePath path);

	/**
	 * Describes a file at once, without waiting, where the backend has the answer at hand
	 * (it holds its entries in memory): for callers on a hot path that would otherwise go
	 * through {@link #stat}'s publisher. Optional: backends and decorators that cannot
	 * answer at once (or must not, such as one that checks rights) answer {@code null},
	 * the default, and the caller goes the asynchronous way. So does anything but a file
	 * that is there: a missing path, a folder, or a failure are never answered here, so
	 * that {@link #stat} reports them with its usual errors (and meters).
	 *
	 * <p>
	 * <b>Threading.</b> Runs on the caller's thread, which may be a Netty event loop: an
	 * implementation never blocks nor waits for I/O, and only holds a lock for a look-up.
	 * Never throws.
	 * @param path the path
	 * @return the file's entry, as {@link #stat} would give it; {@code null} if the
	 * answer is not at hand
	 */
	default @Nullable FileEntry statAtHand(StoragePath path) {
		return null;
	}

	/**
	 * Describes and reads a whole file at once, without waiting, where the backend holds
	 * its bytes in memory: what {@link #stat} and {@link #read} of
	 * {@link ByteRange#all()} would give, without their publishers. The same rules as
	 * {@link #statAtHand}: an optional shortcut that answers {@code null} for anything it
	 * cannot answer at once, and then the caller uses {@link #stat} and {@link #read}.
	 * @param path the path
	 * @param maxSize the largest file wanted this way; a larger one is answered
	 * {@code null}, for callers that stream big files
	 * @return the file and its bytes; {@code null} if not at hand
	 */
	default @Nullable HeldFile readAtHand(StoragePath path, long maxSize) {
		return null;
	}

	/**
	 * Lists the direct children of a folder, in no particular order. Reserved names and
	 * names that {@link StoragePath} would not accept are left out. Needs
	 * {@link Capability#LIST}.
	 * @param directory the folder
	 * @return its children; fails with {@link NotFoundException} if it is missing and
	 * {@link ConflictException} if it is a file
	 */
	Flux<FileEntry> list(StoragePath directory);

	/**
	 * Streams a file's content, or part of it.
	 * @param path the file
	 * @param range which bytes; a range other than {@link ByteRange#all()} uses
	 * {@link Capability#RANGE_READ} where the backend has it, and otherwise skips the
	 * bytes before the offset
	 * @return the bytes, in order; fails with {@link NotFoundException} if missing and
	 * {@link ConflictException} if it is not a file
	 */
	Flux<DataBuffer> read(StoragePath path, ByteRange range);

	/**
	 * Writes a file from a stream of buffers. The parent folder must exist where the
	 * backend has {@link Capability#DIRECTORIES}.
	 * @param path the file
	 * @param content the bytes; subscribed once
	 * @param options what to do with an existing file, and the announced length
	 * @return the written file's entry once the content is complete and visible
	 */
	Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options);

	/**
	 * Deletes a file or a folder.
	 * @param path what to delete; never the root
	 * @param recursive whether a folder's content goes too; without it a non-empty folder
	 * fails with {@link ConflictException}
	 * @return completes when it is gone; fails with {@link NotFoundException} if it was
	 * not there
	 */
	Mono<Void> delete(StoragePath path, boolean recursive);

	/**
	 * Creates one folder; its parent must exist. Needs {@link Capability#DIRECTORIES}.
	 * @param path the new folder
	 * @return its entry; fails with {@link AlreadyExistsException} if the path exists
	 */
	Mono<FileEntry> createDirectory(StoragePath path);

	/**
	 * Creates a folder and any missing ancestors; succeeds if it already exists as a
	 * folder. Needs {@link Capability#DIRECTORIES}.
	 * @param path the folder
	 * @return its entry; fails with {@link ConflictException} if the path or an ancestor
	 * is a file
	 */
	default Mono<FileEntry> createDirectories(StoragePath path) {
		return StorageSupport.createDirectories(this, path);
	}

	/**
	 * Moves or renames a file or folder. Needs {@link Capability#MOVE}.
	 * @param source what to move; never the root
	 * @param target where to; its parent must exist
	 * @param replace whether an existing file at the target is replaced; an existing
	 * folder never is
	 * @return the moved entry at its new path; fails with {@link ConflictException} when
	 * moving a folder into itself
	 */
	Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace);

	/**
	 * Copies a file, or a folder with everything in it. Backends without
	 * {@link Capability#NATIVE_COPY} stream the bytes through Wharf. A link below the
	 * source that leads back into a folder being copied (a link loop, see
	 * {@link FolderChain}) is left out, and so is the copy itself where a link leads into
	 * it.
	 * @param source what to copy
	 * @param target where to; its parent must exist
	 * @param replace whether an existing file at the target is replaced
	 * @return the new entry; fails with {@link ConflictException} naming what was left
	 * out, once the rest is copied
	 */
	default Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return StorageSupport.streamCopy(this, source, target, replace);
	}

	/**
	 * Sets the modification time of a file or folder, as mirroring clients do after an
	 * upload so that the copy keeps the original's time. Needs
	 * {@link Capability#MODIFICATION_TIME}; the backend keeps the time at its own
	 * precision (whole seconds over SFTP). Follows links where {@link #stat} does.
	 * @param path the file or folder
	 * @param time the new modification time
	 * @return the entry with its new time; fails with {@link NotFoundException} if
	 * nothing is at the path and {@link ConflictException} if the backend cannot hold
	 * that time
	 */
	default Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return Mono.error(new UnsupportedCapabilityException(Capability.MODIFICATION_TIME, toString()));
	}

	/**
	 * Writes a file whose content is other files one after another, as {@link #write}
	 * does with their bytes (resumable uploads assemble their pieces this way). The
	 * sources stay. Backends that can assemble objects on the server override it (s3: a
	 * multipart upload of copied parts); the default streams the bytes through Wharf.
	 * @param sources the files, in order; at least one
	 * @param target the file to write; its parent must exist
	 * @param options what to do with an existing file, and the total length if known
	 * @return the written file's entry once it is complete and visible
	 */
	default Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return write(target, Flux.fromIterable(sources).concatMap(source -> read(source, ByteRange.all())), options);
	}

	/**
	 * The local file behind a path, for zero-copy transfers. Needs
	 * {@link Capability#LOCAL_FILE}; other backends complete empty. The file may be
	 * replaced at any time; callers that send it must tolerate a file that changed since
	 * {@link #stat}.
	 * @param path a file
	 * @return the host path, or empty
	 */
	default Mono<Path> localFile(StoragePath path) {
		return Mono.empty();
	}

	/**
	 * Whether this storage logs in to its backend as the current user ("passthrough"), so
	 * that protocols must put the user's {@link dev.wharf.core.security.Credentials} into
	 * the Reactor context of every call ({@code contextWrite(credentials.context())}).
	 * Without them such a storage fails with {@link AccessDeniedException}.
	 * @return {@code false} unless the mount is configured for passthrough
	 */
	default boolean needsUserCredentials() {
		return false;
	}

	/**
	 * Checks that the backend answers, for health reports.
	 * @return completes if the backend is usable, fails otherwise
	 */
	default Mono<Void> checkHealth() {
		return stat(StoragePath.root()).then();
	}

	/** Releases connections, pools and threads. Idempotent. */
	@Override
	default void close() {
	}

}
