package dev.wharf.filemanager.upload;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.wharf.core.session.Secrets;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.BodyLimit;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps resumable uploads inside their mount, under the reserved folder
 * {@code .wharf/uploads/<id>/}: an {@code info} file ({@link UploadState}) and the data
 * as chunks named after their offset ({@code c0000000000000000}, …). Every chunk is
 * written atomically and never replaced (a second writer of the same offset fails), so
 * the offset of an upload is simply where the chain of chunks ends: it survives a restart
 * and is the same on every replica, and a chunk cut off by a dropped connection leaves
 * nothing. A {@code PATCH} body without a checksum is cut into chunks of at most about
 * {@code segmentSize} bytes, so a long transfer that breaks keeps what arrived before;
 * with a checksum it is one chunk, kept only if the digest matches. When the last byte
 * arrives, the chunks become the target file in one atomic write
 * ({@link Storage#concatenate}, which an {@code s3} mount does on the server by copying
 * the chunks into the parts of one multipart upload) or one move, for a single chunk:
 * until then nothing exists at the target. Then the chunks go and a {@code done} marker
 * stays beside {@code info} until the upload expires, so a client whose last response was
 * lost (the connection broke after the server had everything) learns from {@code HEAD}
 * that the upload is complete instead of being told that it never existed.
 *
 * <p>
 * Works on any storage, also one without folders or listing (chunks are found by offset,
 * not by listing); only {@link #sweep} needs {@link Capability#LIST}. Thread-safe;
 * non-blocking.
 */
final class UploadStore {

	/** Where uploads live inside a mount. */
	static final StoragePath UPLOADS = StoragePath.reserved("/.wharf/uploads");

	/** Random bytes in an upload id. */
	static final int ID_BYTES = 16;

	private static final String INFO = "info";

	private static final String DONE = "done";

	private final Duration expiry;

	private final long segmentSize;

	private final Clock clock;

	/**
	 * Creates the store.
	 * @param expiry how long an upload lives after its last chunk
	 * @param segmentSize the size after which a {@code PATCH} body is cut into a new
	 * chunk
	 * @param clock the time source
	 */
	UploadStore(Duration expiry, long segmentSize, Clock clock) {
		this.expiry = expiry;
		this.segmentSize = segmentSize;
		this.clock = clock;
	}

	Mono<UploadState> create(Storage storage, String user, StoragePath target, long length, String metadata) {
		return Mono.defer(() -> {
			UploadState state = new UploadState(Secrets.random(ID_BYTES), user, target, length, this.clock.instant(),
					metadata);
			StoragePath folder = folder(state.id());
			Mono<?> folders = storage.capabilities().contains(Capability.DIRECTORIES)
					? storage.createDirectories(folder) : Mono.empty();
			byte[] info = state.toBytes();
			return folders
				.then(storage.write(folder.resolve(INFO), Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(info)),
						new WriteOptions(WriteMode.CREATE_NEW, info.length)))
				.thenReturn(state);
		});
	}

	/**
	 * Loads an upload.
	 * @return the state, or empty if there is no such upload
	 */
	Mono<UploadState> load(Storage storage, String id) {
		if (!Secrets.looksLikeSecret(id, ID_BYTES)) {
			return Mono.empty();
		}
		return DataBufferUtils.join(storage.read(folder(id).resolve(INFO), ByteRange.all()), 64 * 1024).map(buffer -> {
			try {
				byte[] bytes = new byte[buffer.readableByteCount()];
				buffer.read(bytes);
				return UploadState.parse(bytes);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}).onErrorResume(NotFoundException.class, missing -> Mono.empty());
	}

	/**
	 * Where the chunks end, and when the upload was last active; for a complete upload,
	 * its length.
	 */
	Mono<Progress> progress(Storage storage, UploadState state) {
		StoragePath folder = folder(state.id());
		Mono<Progress> receiving = chunk(storage, folder, 0)
			.expand(entry -> (entry.size() == 0) ? Mono.empty()
					: chunk(storage, folder, offsetOf(entry) + entry.size()))
			.filter(entry -> entry.size() > 0)
			.collectList()
			.map(chunks -> {
				long offset = 0;
				Instant active = state.created();
				for (FileEntry chunk : chunks) {
					offset = offsetOf(chunk) + chunk.size();
					if (chunk.lastModified().isAfter(active)) {
						active = chunk.lastModified();
					}
				}
				return new Progress(offset, chunks, active.plus(this.expiry), false);
			});
		return storage.stat(folder.resolve(DONE))
			.map(done -> new Progress(state.length(), List.of(), done.lastModified().plus(this.expiry), true))
			.onErrorResume(NotFoundException.class, missing -> receiving);
	}

	/**
	 * Appends a {@code PATCH} body at an offset.
	 * @return the new offset (also when the body broke off: what arrived in complete
	 * chunks counts); fails if nothing could be kept
	 */
	Mono<Long> append(Storage storage, UploadState state, long offset, Flux<DataBuffer> body,
			@Nullable UploadChecksum checksum) {
		StoragePath folder = folder(state.id());
		Flux<DataBuffer> limited = BodyLimit.limit(body, state.length() - offset,
				() -> new ApiException(HttpStatus.CONTENT_TOO_LARGE, "The body goes past Upload-Length"));
		if (checksum != null) {
			return writeChunk(storage, folder, offset, checksum.verify(limited));
		}
		return Mono.defer(() -> {
			long[] position = { offset };
			long[] inSegment = { 0 };
			return limited.windowUntil(buffer -> {
				inSegment[0] += buffer.readableByteCount();
				if (inSegment[0] >= this.segmentSize) {
					inSegment[0] = 0;
					return true;
				}
				return false;
			}, false, 8)
				.concatMap(
						window -> writeChunk(storage, folder, position[0], window).doOnNext(end -> position[0] = end))
				.then(Mono.fromSupplier(() -> position[0]));
		});
	}

	private Mono<Long> writeChunk(Storage storage, StoragePath folder, long offset, Flux<DataBuffer> content) {
		StoragePath path = chunkPath(folder, offset);
		return storage.write(path, content, WriteOptions.createNew()).flatMap(entry -> {
			if (entry.size() == 0) {
				// An empty chunk would end the chain early; nothing was sent, so nothing
				// is kept.
				return storage.delete(path, false).thenReturn(offset);
			}
			return Mono.just(offset + entry.size());
		});
	}

	/**
	 * Makes the target file from the chunks, marks the upload complete and removes the
	 * chunks. A failure after the file was made leaves the upload to be completed again
	 * (the same bytes) or to expire.
	 * @return the new file
	 */
	Mono<FileEntry> complete(Storage storage, UploadState state, Progress progress) {
		List<FileEntry> chunks = progress.chunks();
		Mono<FileEntry> publish;
		if (chunks.size() == 1 && storage.capabilities().contains(Capability.MOVE)) {
			publish = storage.move(chunks.get(0).path(), state.target(), true);
		}
		else {
			// One write of the chunks' bytes; an object store assembles them on its
			// server instead.
			publish = storage.concatenate(chunks.stream().map(FileEntry::path).toList(), state.target(),
					new WriteOptions(WriteMode.REPLACE, state.length()));
		}
		StoragePath done = folder(state.id()).resolve(DONE);
		return publish.flatMap(entry -> storage.write(done, Flux.empty(), new WriteOptions(WriteMode.REPLACE, 0))
			.then(deleteChunks(storage, chunks))
			.thenReturn(entry));
	}

	/** Removes an upload's state and data. */
	Mono<Void> delete(Storage storage, UploadState state) {
		StoragePath folder = folder(state.id());
		if (storage.capabilities().contains(Capability.DIRECTORIES)) {
			return deleteIfPresent(storage, folder, true);
		}
		return progress(storage, state).flatMap(progress -> deleteChunks(storage, progress.chunks()))
			.then(deleteIfPresent(storage, folder.resolve(DONE), false))
			.then(deleteIfPresent(storage, folder.resolve(INFO), false));
	}

	private static Mono<Void> deleteChunks(Storage storage, List<FileEntry> chunks) {
		return Flux.fromIterable(chunks).concatMap(chunk -> deleteIfPresent(storage, chunk.path(), false)).then();
	}

	private static Mono<Void> deleteIfPresent(Storage storage, StoragePath path, boolean recursive) {
		return storage.delete(path, recursive).onErrorResume(NotFoundException.class, gone -> Mono.empty());
	}

	/**
	 * Removes expired uploads from a mount.
	 * @param storage the mount's own storage
	 * @return how many were removed
	 */
	Mono<Integer> sweep(Storage storage) {
		if (!storage.capabilities().contains(Capability.LIST)) {
			return Mono.just(0);
		}
		Instant now = this.clock.instant();
		return storage.list(UPLOADS)
			.onErrorResume(NotFoundException.class, none -> Flux.empty())
			.concatMap(folder -> load(storage, folder.name())
				.flatMap(state -> progress(storage, state).flatMap(progress -> progress.expires().isBefore(now)
						? delete(storage, state).thenReturn(1) : Mono.just(0)))
				.switchIfEmpty(Mono.defer(() -> abandoned(storage, folder, now)))
				.onErrorResume(error -> abandoned(storage, folder, now)))
			.reduce(0, Integer::sum);
	}

	/**
	 * A folder without a readable state file is removed once it is older than an upload
	 * may live.
	 */
	private Mono<Integer> abandoned(Storage storage, FileEntry folder, Instant now) {
		if (folder.lastModified().plus(this.expiry).isAfter(now)) {
			return Mono.just(0);
		}
		return storage.delete(folder.path(), true).thenReturn(1).onErrorResume(error -> Mono.just(0));
	}

	private static Mono<FileEntry> chunk(Storage storage, StoragePath folder, long offset) {
		return storage.stat(chunkPath(folder, offset)).onErrorResume(NotFoundException.class, missing -> Mono.empty());
	}

	private static StoragePath folder(String id) {
		return UPLOADS.resolve(id);
	}

	private static StoragePath chunkPath(StoragePath folder, long offset) {
		String hex = Long.toHexString(offset);
		return folder.resolve("c" + "0".repeat(16 - hex.length()) + hex);
	}

	private static long offsetOf(FileEntry chunk) {
		return Long.parseUnsignedLong(chunk.name().substring(1), 16);
	}

	/**
	 * How far an upload got.
	 *
	 * @param offset the bytes received
	 * @param chunks the chunks, in order (none once complete)
	 * @param expires when it will be removed unless more arrives
	 * @param complete whether the file was made and the upload only remains to answer
	 * {@code HEAD}
	 */
	record Progress(long offset, List<FileEntry> chunks, Instant expires, boolean complete) {
	}

}
