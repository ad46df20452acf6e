package dev.wharf.core.storage.s3;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageSupport;
import dev.wharf.core.storage.UnsupportedCapabilityException;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Files as objects in an S3 bucket, below an optional prefix ({@link S3Keys}), through
 * the SDK's asynchronous client on the CRT HTTP client, except downloads, which are
 * signed by the SDK and fetched with Reactor Netty's client ({@link S3ObjectStreams}).
 *
 * <p>
 * <b>Folders</b> are key prefixes. {@code mkdir} writes an empty marker object
 * {@code name/}, so empty folders exist; a prefix with objects below it is a folder with
 * or without a marker, as other S3 tools leave them. Listings ask for one level
 * ({@code ListObjectsV2} with a delimiter) page by page, following continuation tokens,
 * and fail with {@link QuotaExceededException} past {@code max-list-entries} instead of
 * reading without end. A folder's time is its marker's, or the epoch without one.
 *
 * <p>
 * <b>Writes</b> are atomic, as S3 makes every object write: a reader sees the old object
 * or the new one. Content that fits one part is one {@code PutObject}; longer content of
 * a known length ({@link WriteOptions#expectedLength()}) is one {@code PutObject} too,
 * streamed ({@link S3ObjectStreams#put}: nothing held, but not retried); longer content
 * of unknown length is a multipart upload whose parts are sent as they fill,
 * {@code parts-in-flight} at a time, so an upload holds at most about {@code part-size}
 * times ({@code parts-in-flight} + 1) bytes whatever the file's size. A failed or
 * cancelled upload is aborted, so it leaves neither an object nor parts behind (a crash
 * is cleaned up by the start-up sweep, {@link #abortStaleUploads}).
 * {@link WriteMode#CREATE_NEW} sends {@code If-None-Match: *}, so S3 refuses it if
 * another writer created the object first; within one Wharf a second creation of the same
 * path while the first is under way fails at once too. Appends are impossible on S3
 * ({@link Capability#APPEND} is missing: FTP answers {@code APPE} and resumed
 * {@code STOR} with 504).
 *
 * <p>
 * <b>Copies and moves</b> are done by S3 ({@code CopyObject}, above the copy limit a
 * multipart upload of {@code UploadPartCopy} ranges): no byte passes through Wharf. They
 * are NOT atomic: a folder is copied object by object, and a move is a copy followed by
 * deleting the source, so a reader can see the copy half-made, or both the source and the
 * target, and a failure part-way leaves them so ({@link Capability#ATOMIC_MOVE} is
 * missing). {@link #concatenate} assembles a file from others on the server as well
 * ({@link ConcatenationPlan}).
 *
 * <p>
 * <b>Times and errors.</b> Modification times are the objects' {@code Last-Modified}, to
 * the second (S3 keeps no other time and cannot set one). S3's answers map to typed
 * errors ({@link S3Errors}); throttling, 5xx answers and broken connections are retried
 * with back-off first (by the SDK, and for downloads by {@link S3ObjectStreams}, only
 * before the first byte).
 *
 * <p>
 * <b>Threading.</b> No method blocks. Requests start on this mount's small callback pool
 * and their futures complete there (never on the CRT's event loops or the caller's);
 * downloaded bytes are handed on there too. Thread-safe.
 */
public final class S3Storage implements Storage {

	private static final Set<Capability> CAPABILITIES = Collections
		.unmodifiableSet(EnumSet.of(Capability.LIST, Capability.DIRECTORIES, Capability.RANGE_READ,
				Capability.ATOMIC_WRITE, Capability.MOVE, Capability.NATIVE_COPY));

	/** Keys per listing page and per batch delete: S3's largest. */
	private static final int PAGE_SIZE = 1000;

	/** Objects copied or deleted at once in a folder operation. */
	private static final int TREE_CONCURRENCY = 8;

	private static final Log logger = LogFactory.getLog(S3Storage.class);

	private final String mount;

	private final String bucket;

	private final S3Keys keys;

	private final S3AsyncClient client;

	private final S3ObjectStreams streams;

	private final Scheduler callbacks;

	private final Limits limits;

	/** Keys being created with {@link WriteMode#CREATE_NEW} by this instance. */
	private final Set<String> creating = ConcurrentHashMap.newKeySet();

	/** Whether the server takes batch deletes; cleared by its first refusal. */
	private final AtomicBoolean batchDeletes = new AtomicBoolean(true);

	private final AtomicBoolean closed = new AtomicBoolean();

	/**
	 * Creates the storage; makes no request.
	 * @param mount the mount's name, for messages
	 * @param bucket the bucket
	 * @param keyPrefix the start of every key: empty, or a folder ending with {@code /}
	 * @param client the client; closed by {@link #close()}
	 * @param streams downloads objects and streams uploads; closed by {@link #close()}
	 * @param callbacks where requests start and their results arrive (the client's
	 * future-completion executor must run on it too); disposed by {@link #close()}
	 * @param limits part sizes and counts
	 */
	S3Storage(String mount, String bucket, String keyPrefix, S3AsyncClient client, S3ObjectStreams streams,
			Scheduler callbacks, Limits limits) {
		this.mount = mount;
		this.bucket = bucket;
		this.keys = new S3Keys(keyPrefix);
		this.client = client;
		this.streams = streams;
		this.callbacks = callbacks;
		this.limits = limits;
	}

	@Override
	public Set<Capability> capabilities() {
		return CAPABILITIES;
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		if (path.isRoot()) {
			return Mono.just(new FileEntry(path, EntryType.DIRECTORY, 0, Instant.EPOCH));
		}
		return head(path).onErrorResume(NotFoundException.class,
				noFile -> folder(path).switchIfEmpty(Mono.error(() -> new NotFoundException("Not found: " + path))));
	}

	/**
	 * A file's entry; fails with {@link NotFoundException} if there is no object at its
	 * key.
	 */
	private Mono<FileEntry> head(StoragePath path) {
		return call(path, () -> this.client.headObject(b -> b.bucket(this.bucket).key(this.keys.file(path))))
			.map(head -> fileEntry(path, head));
	}

	/**
	 * A folder's entry if it has a marker or anything has its prefix, else empty. The
	 * marker is asked for directly: some servers (S3Proxy on a file system) leave it out
	 * of listings.
	 */
	private Mono<FileEntry> folder(StoragePath path) {
		String prefix = this.keys.folder(path);
		return call(path, () -> this.client.headObject(b -> b.bucket(this.bucket).key(prefix)))
			.map(marker -> new FileEntry(path, EntryType.DIRECTORY, 0, seconds(marker.lastModified())))
			.onErrorResume(NotFoundException.class,
					noMarker -> call(path,
							() -> this.client.listObjectsV2(b -> b.bucket(this.bucket).prefix(prefix).maxKeys(1)))
						.filter(page -> !page.contents().isEmpty())
						.map(page -> new FileEntry(path, EntryType.DIRECTORY, 0, Instant.EPOCH)));
	}

	private static FileEntry fileEntry(StoragePath path, HeadObjectResponse head) {
		return new FileEntry(path, EntryType.FILE, head.contentLength(), seconds(head.lastModified()));
	}

	/**
	 * S3's times to the second: listings give milliseconds, {@code HEAD} only seconds.
	 */
	private static Instant seconds(Instant time) {
		return time.truncatedTo(ChronoUnit.SECONDS);
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return Flux.defer(() -> {
			String prefix = this.keys.folder(directory);
			AtomicInteger entries = new AtomicInteger();
			AtomicBoolean first = new AtomicBoolean(true);
			Set<String> folders = new java.util.HashSet<>();
			return listPage(directory, prefix, null).expand(page -> Boolean.TRUE.equals(page.isTruncated())
					? listPage(directory, prefix, page.nextContinuationToken()) : Mono.empty())
				.concatMap(page -> {
					boolean isFirst = first.getAndSet(false);
					if (isFirst && !directory.isRoot() && page.contents().isEmpty()
							&& page.commonPrefixes().isEmpty()) {
						return missingFolder(directory);
					}
					return Flux.fromIterable(children(directory, prefix, page, folders));
				})
				.doOnNext(entry -> {
					if (entries.incrementAndGet() > this.limits.maxListEntries()) {
						throw new QuotaExceededException(directory + " has more than " + this.limits.maxListEntries()
								+ " entries, the mount's max-list-entries");
					}
				});
		});
	}

	private Mono<ListObjectsV2Response> listPage(StoragePath directory, String prefix, @Nullable String token) {
		return call(directory,
				() -> this.client.listObjectsV2(b -> b.bucket(this.bucket)
					.prefix(prefix)
					.delimiter("/")
					.maxKeys(this.limits.pageSize())
					.continuationToken(token)));
	}

	/**
	 * One page's children. Folders come as common prefixes, or (from servers that keep
	 * folders as such, like S3Proxy's) as marker keys ending in a slash; each folder is
	 * listed once.
	 */
	private static List<FileEntry> children(StoragePath directory, String prefix, ListObjectsV2Response page,
			Set<String> folders) {
		List<FileEntry> children = new ArrayList<>(page.contents().size() + page.commonPrefixes().size());
		for (S3Object object : page.contents()) {
			String name = object.key().substring(prefix.length());
			if (name.endsWith("/")) {
				addFolder(children, directory, name.substring(0, name.length() - 1), folders);
			}
			// The folder's own marker is not a child; neither is a name a path cannot
			// hold.
			else if (StoragePath.isValidName(name)) {
				children.add(new FileEntry(directory.resolve(name), EntryType.FILE, object.size(),
						seconds(object.lastModified())));
			}
		}
		for (CommonPrefix common : page.commonPrefixes()) {
			addFolder(children, directory, common.prefix().substring(prefix.length(), common.prefix().length() - 1),
					folders);
		}
		return children;
	}

	private static void addFolder(List<FileEntry> children, StoragePath directory, String name, Set<String> folders) {
		if (StoragePath.isValidName(name) && folders.add(name)) {
			children.add(new FileEntry(directory.resolve(name), EntryType.DIRECTORY, 0, Instant.EPOCH));
		}
	}

	/**
	 * What a folder prefix with nothing in it is: an empty folder (its marker), a file (a
	 * conflict), or nothing.
	 */
	private Flux<FileEntry> missingFolder(StoragePath directory) {
		return folder(directory).flatMapMany(empty -> Flux.<FileEntry>empty())
			.switchIfEmpty(head(directory)
				.flatMapMany(file -> Flux.error(new ConflictException("Not a folder: " + directory))));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		if (path.isRoot()) {
			return Flux.error(new ConflictException("Not a file: " + path));
		}
		if (!range.isToEnd() && range.length() == 0) {
			return stat(path).flatMapMany(
					entry -> entry.isFile() ? Flux.empty() : Flux.error(new ConflictException("Not a file: " + path)));
		}
		String header = range.isAll() ? null : "bytes=" + range.offset() + "-"
				+ (range.isToEnd() ? "" : Long.toString(range.offset() + range.length() - 1));
		return this.streams.read(path, this.keys.file(path), header)
			.onErrorResume(error -> S3Errors.hasStatus(error, S3Errors.RANGE_NOT_SATISFIABLE), past -> Flux.empty())
			.onErrorResume(NotFoundException.class,
					missing -> folder(path)
						.flatMapMany(folder -> Flux.<DataBuffer>error(new ConflictException("Not a file: " + path)))
						.switchIfEmpty(Flux.error(missing)));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return Mono.defer(() -> {
			if (options.mode() == WriteMode.APPEND) {
				return Mono.error(new UnsupportedCapabilityException(Capability.APPEND, this.mount));
			}
			if (path.isRoot()) {
				return Mono.error(new ConflictException("Cannot write over the root of a mount"));
			}
			return claimed(path, options.mode(),
					key -> checkWritable(path, options.mode()).then(upload(path, key, content, options)));
		});
	}

	/**
	 * Runs a write, first claiming its key within this instance if it creates a new file,
	 * so that two creations of the same path do not both pass the check for an existing
	 * file.
	 */
	private Mono<FileEntry> claimed(StoragePath path, WriteMode mode,
			java.util.function.Function<String, Mono<FileEntry>> write) {
		String key = this.keys.file(path);
		if (mode != WriteMode.CREATE_NEW) {
			return write.apply(key);
		}
		if (!this.creating.add(key)) {
			return Mono.error(new AlreadyExistsException("Already being created: " + path));
		}
		return write.apply(key).doFinally(signal -> this.creating.remove(key));
	}

	/**
	 * Checks that a file may be written at a path: its parent is a folder, it is not a
	 * folder itself, and for {@link WriteMode#CREATE_NEW} nothing is there.
	 */
	private Mono<Void> checkWritable(StoragePath path, WriteMode mode) {
		StoragePath parent = path.parent();
		Mono<Void> parentIsFolder = (parent == null
				|| parent.isRoot())
						? Mono.empty()
						: stat(parent)
							.onErrorMap(NotFoundException.class,
									missing -> new NotFoundException("The folder " + parent + " does not exist",
											missing))
							.flatMap(entry -> entry.isDirectory() ? Mono.empty()
									: Mono.error(new ConflictException("Not a folder: " + parent)));
		Mono<Void> target = stat(path).flatMap(entry -> {
			if (entry.isDirectory()) {
				return Mono.error(new ConflictException("Is a folder: " + path));
			}
			return (mode == WriteMode.CREATE_NEW) ? Mono.error(new AlreadyExistsException("Already exists: " + path))
					: Mono.empty();
		}).onErrorResume(NotFoundException.class, nothing -> Mono.empty()).then();
		return Mono.when(parentIsFolder, target);
	}

	private Mono<FileEntry> upload(StoragePath path, String key, Flux<DataBuffer> content, WriteOptions options) {
		// A known length above one part is streamed in one request rather than cut into
		// parts: nothing to hold, copy or assemble. Up to a part, the buffered request
		// can be retried.
		if (options.hasExpectedLength() && options.expectedLength() > this.limits.partSize()
				&& options.expectedLength() <= S3StorageProperties.MAX_PART_SIZE && this.streams.streamsUploads()) {
			return this.streams
				.put(path, key, content, options.expectedLength(), options.mode() == WriteMode.CREATE_NEW)
				.then(head(path));
		}
		return Mono.defer(() -> {
			PartCutter cutter = new PartCutter(PartCutter.partSize(this.limits.partSize(), options.expectedLength()),
					options.expectedLength());
			// One buffer at a time: the parts, not a queue of incoming buffers, are what
			// an upload holds.
			Flux<PartCutter.Part> parts = content.concatMapIterable(cutter::add, 1)
				.concatWith(Mono.fromCallable(cutter::finish))
				// Buffers still queued upstream when the write fails or is cancelled are
				// released here.
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
			return parts.switchOnFirst((first, all) -> {
				if (!first.hasValue()) {
					// The content failed before a part was cut: nothing was sent, nothing
					// to abort.
					return all.then();
				}
				PartCutter.Part part = first.get();
				if (part != null && part.last()) {
					return all.next().flatMap(only -> putObject(path, key, only, options.mode()));
				}
				return multipart(path, key, options.mode(), uploadId -> all
					.flatMapSequential(next -> uploadPart(path, key, uploadId, next), this.limits.partsInFlight(), 1));
			}).then();
		}).then(head(path));
	}

	private Mono<Void> putObject(StoragePath path, String key, PartCutter.Part part, WriteMode mode) {
		return call(path,
				() -> this.client.putObject(b -> b.bucket(this.bucket)
					.key(key)
					.contentLength(part.size())
					.ifNoneMatch((mode == WriteMode.CREATE_NEW) ? "*" : null), part.body()))
			.then();
	}

	private Mono<CompletedPart> uploadPart(StoragePath path, String key, String uploadId, PartCutter.Part part) {
		return call(path,
				() -> this.client.uploadPart(b -> b.bucket(this.bucket)
					.key(key)
					.uploadId(uploadId)
					.partNumber(part.number())
					.contentLength(part.size()), part.body()))
			.map(response -> CompletedPart.builder().partNumber(part.number()).eTag(response.eTag()).build());
	}

	/**
	 * Runs a multipart upload: starts it, sends the parts the function makes, completes
	 * it; aborts it if anything fails or the caller cancels, so no parts stay behind.
	 */
	private Mono<Void> multipart(StoragePath path, String key, WriteMode mode,
			java.util.function.Function<String, Flux<CompletedPart>> parts) {
		return call(path, () -> this.client.createMultipartUpload(b -> b.bucket(this.bucket).key(key)))
			.flatMap(created -> {
				String uploadId = created.uploadId();
				AtomicBoolean finished = new AtomicBoolean();
				return parts.apply(uploadId)
					.collectList()
					.flatMap(completed -> call(path,
							() -> this.client.completeMultipartUpload(b -> b.bucket(this.bucket)
								.key(key)
								.uploadId(uploadId)
								.ifNoneMatch((mode == WriteMode.CREATE_NEW) ? "*" : null)
								.multipartUpload(upload -> upload.parts(completed)))))
					.doOnSuccess(done -> finished.set(true))
					.onErrorResume(error -> abort(path, key, uploadId).then(Mono.error(error)))
					.doOnCancel(() -> {
						if (!finished.get()) {
							abort(path, key, uploadId).subscribe();
						}
					})
					.then();
			});
	}

	private Mono<Void> abort(StoragePath path, String key, String uploadId) {
		return call(path,
				() -> this.client.abortMultipartUpload(b -> b.bucket(this.bucket).key(key).uploadId(uploadId)))
			.then()
			.onErrorResume(error -> {
				logger.warn("Mount '" + this.mount + "': could not abort an upload to " + path
						+ "; the start-up sweep will: " + error.getMessage());
				return Mono.empty();
			});
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(path, "delete");
			return stat(path).flatMap(entry -> {
				if (entry.isFile()) {
					return call(path,
							() -> this.client.deleteObject(b -> b.bucket(this.bucket).key(this.keys.file(path))))
						.then();
				}
				String prefix = this.keys.folder(path);
				if (recursive) {
					return deleteTree(path, prefix);
				}
				return call(path, () -> this.client.listObjectsV2(b -> b.bucket(this.bucket).prefix(prefix).maxKeys(2)))
					.flatMap(page -> {
						if (page.contents().stream().anyMatch(object -> !object.key().equals(prefix))) {
							return Mono.error(new ConflictException("Folder is not empty: " + path));
						}
						return call(path, () -> this.client.deleteObject(b -> b.bucket(this.bucket).key(prefix)))
							.then();
					});
			});
		});
	}

	/**
	 * Deletes everything below a prefix: the objects first, then the folder markers,
	 * deepest first (servers that keep folders as real folders, like S3Proxy on a file
	 * system, do not remove one with content).
	 */
	private Mono<Void> deleteTree(StoragePath path, String prefix) {
		return deleteKeys(path, allKeys(path, prefix).filter(object -> !object.key().endsWith("/")))
			.then(allKeys(path, prefix).map(S3Object::key).collectList().flatMap(markers -> {
				markers.sort(java.util.Comparator.comparingInt(String::length).reversed());
				if (!markers.contains(prefix)) {
					markers.add(prefix);
				}
				return Flux.fromIterable(markers)
					.concatMap(key -> call(path, () -> this.client.deleteObject(b -> b.bucket(this.bucket).key(key))))
					.then();
			}));
	}

	/** Every key that starts with a prefix, across pages. */
	private Flux<S3Object> allKeys(StoragePath path, String prefix) {
		return listAll(path, prefix, null)
			.expand(page -> Boolean.TRUE.equals(page.isTruncated())
					? listAll(path, prefix, page.nextContinuationToken()) : Mono.empty())
			.concatMapIterable(ListObjectsV2Response::contents);
	}

	private Mono<ListObjectsV2Response> listAll(StoragePath path, String prefix, @Nullable String token) {
		return call(path, () -> this.client.listObjectsV2(
				b -> b.bucket(this.bucket).prefix(prefix).maxKeys(this.limits.pageSize()).continuationToken(token)));
	}

	/**
	 * Deletes objects in batches of up to 1,000 keys per request ({@code DeleteObjects}),
	 * or one by one on a server that does not offer batches (some compatible servers
	 * refuse the checksum header the SDK sends with them); the first refusal switches
	 * this mount to single deletes.
	 */
	private Mono<Void> deleteKeys(StoragePath path, Flux<S3Object> objects) {
		return objects.map(S3Object::key).buffer(PAGE_SIZE).concatMap(batch -> {
			if (!this.batchDeletes.get()) {
				return deleteOneByOne(path, batch);
			}
			List<ObjectIdentifier> identifiers = batch.stream()
				.map(key -> ObjectIdentifier.builder().key(key).build())
				.toList();
			return call(path,
					() -> this.client
						.deleteObjects(b -> b.bucket(this.bucket).delete(d -> d.objects(identifiers).quiet(true))))
				.flatMap(response -> response.hasErrors() && !response.errors().isEmpty()
						? Mono.<Void>error(
								new StorageIoException("The S3 server could not delete " + response.errors().size()
										+ " objects in " + path + ", such as " + response.errors().get(0).code()))
						: Mono.<Void>empty())
				.onErrorResume(error -> S3Errors.hasStatus(error, S3Errors.NOT_IMPLEMENTED), unsupported -> {
					this.batchDeletes.set(false);
					return deleteOneByOne(path, batch);
				});
		}).then();
	}

	private Mono<Void> deleteOneByOne(StoragePath path, List<String> keys) {
		return Flux.fromIterable(keys)
			.flatMap(key -> call(path, () -> this.client.deleteObject(b -> b.bucket(this.bucket).key(key))),
					TREE_CONCURRENCY)
			.then();
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return Mono.defer(() -> {
			StoragePath parent = path.parent();
			if (parent == null) {
				return Mono.error(new AlreadyExistsException("The root always exists"));
			}
			Mono<FileEntry> parentCheck = stat(parent).flatMap(entry -> entry.isDirectory() ? Mono.just(entry)
					: Mono.error(new ConflictException("Not a folder: " + parent)));
			String marker = this.keys.folder(path);
			return parentCheck.then(stat(path)
				.flatMap(existing -> Mono.<FileEntry>error(new AlreadyExistsException("Already exists: " + path)))
				.onErrorResume(NotFoundException.class, missing -> putMarker(path, marker).then(stat(path))));
		});
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(source, "move");
			StorageSupport.requireNotInside(source, target);
			return stat(source).flatMap(entry -> prepareTarget(target, replace)
				.then(entry.isFile() ? copyFile(entry, target).flatMap(copied -> call(source,
						() -> this.client.deleteObject(b -> b.bucket(this.bucket).key(this.keys.file(source))))
					.thenReturn(copied)) : moveFolder(source, target)));
		});
	}

	/**
	 * Checks a move's or copy's target: its parent is a folder; a folder there is never
	 * replaced, a file only when asked to (and then only by the new object, which
	 * replaces it atomically).
	 */
	private Mono<Void> prepareTarget(StoragePath target, boolean replace) {
		StoragePath parent = target.parent();
		if (parent == null) {
			return Mono.error(new AlreadyExistsException("The root always exists"));
		}
		Mono<Void> parentIsFolder = stat(parent)
			.flatMap(entry -> entry.isDirectory() ? Mono.<Void>empty()
					: Mono.error(new ConflictException("Not a folder: " + parent)))
			.onErrorMap(NotFoundException.class,
					missing -> new NotFoundException("The folder " + parent + " does not exist", missing));
		Mono<Void> targetFree = stat(target).flatMap(existing -> {
			if (existing.isDirectory() || !replace) {
				return Mono.<Void>error(new AlreadyExistsException("Already exists: " + target));
			}
			return Mono.<Void>empty();
		}).onErrorResume(NotFoundException.class, free -> Mono.empty());
		return Mono.when(parentIsFolder, targetFree);
	}

	/**
	 * Moves a folder: its marker first (so the target exists even while empty), then
	 * every object below it, copied on the server and then deleted. Not atomic.
	 */
	private Mono<FileEntry> moveFolder(StoragePath source, StoragePath target) {
		String from = this.keys.folder(source);
		String to = this.keys.folder(target);
		Mono<Void> marker = putMarker(target, to);
		Mono<Void> copies = allKeys(source, from).filter(object -> !object.key().equals(from))
			.flatMap(
					object -> object.key().endsWith("/") ? putMarker(target, S3Keys.moved(object.key(), from, to))
							: copyObject(target, object.key(), S3Keys.moved(object.key(), from, to), object.size()),
					TREE_CONCURRENCY)
			.then();
		return marker.then(copies).then(deleteTree(source, from)).then(stat(target));
	}

	/** Writes a folder's empty marker object. */
	private Mono<Void> putMarker(StoragePath path, String key) {
		return call(path, () -> this.client.putObject(b -> b.bucket(this.bucket).key(key).contentLength(0L),
				AsyncRequestBody.empty()))
			.then();
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return StorageSupport.copyTree(this, source, target, replace,
				(file, to, overwrite) -> prepareTarget(to, overwrite).then(copyFile(file, to)));
	}

	private Mono<FileEntry> copyFile(FileEntry file, StoragePath target) {
		return copyObject(target, this.keys.file(file.path()), this.keys.file(target), file.size()).then(head(target));
	}

	/**
	 * Copies one object on the server: one request up to the copy limit, else a multipart
	 * copy.
	 */
	private Mono<Void> copyObject(StoragePath target, String from, String to, long size) {
		if (size <= this.limits.maxCopyPart()) {
			return call(target, () -> this.client.copyObject(
					b -> b.sourceBucket(this.bucket).sourceKey(from).destinationBucket(this.bucket).destinationKey(to)))
				.then();
		}
		long partSize = Math.max(this.limits.copyPartSize(), (size + PartCutter.MAX_PARTS - 1) / PartCutter.MAX_PARTS);
		int count = (int) ((size + partSize - 1) / partSize);
		return multipart(target, to, WriteMode.REPLACE, uploadId -> Flux.range(1, count).flatMapSequential(number -> {
			long offset = (number - 1) * partSize;
			return copyPart(target, to, uploadId, number, from, offset, Math.min(partSize, size - offset));
		}, this.limits.partsInFlight(), 1));
	}

	private Mono<CompletedPart> copyPart(StoragePath target, String key, String uploadId, int number, String from,
			long offset, long length) {
		return call(target,
				() -> this.client.uploadPartCopy(b -> b.sourceBucket(this.bucket)
					.sourceKey(from)
					.copySourceRange("bytes=" + offset + "-" + (offset + length - 1))
					.destinationBucket(this.bucket)
					.destinationKey(key)
					.uploadId(uploadId)
					.partNumber(number)))
			.map(response -> CompletedPart.builder().partNumber(number).eTag(response.copyPartResult().eTag()).build());
	}

	/**
	 * Assembles the file on the server: a multipart upload whose parts S3 copies from the
	 * sources where they are large enough, and Wharf streams where S3's 5 MB minimum for
	 * a part forbids copying ({@link ConcatenationPlan}). Content that fits one part is
	 * simply streamed into one object.
	 */
	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return Flux.fromIterable(sources)
			.flatMapSequential(source -> stat(source).flatMap(entry -> entry.isFile() ? Mono.just(entry)
					: Mono.error(new ConflictException("Not a file: " + source))), TREE_CONCURRENCY)
			.collectList()
			.flatMap(entries -> {
				long[] sizes = entries.stream().mapToLong(FileEntry::size).toArray();
				long total = java.util.Arrays.stream(sizes).sum();
				if (options.hasExpectedLength() && total != options.expectedLength()) {
					return Mono.error(new InvalidContentException(
							"The parts hold " + total + " bytes, not the announced " + options.expectedLength()));
				}
				ConcatenationPlan plan = ConcatenationPlan.of(sizes, S3StorageProperties.MIN_PART_SIZE,
						this.limits.partSize(), this.limits.maxCopyPart());
				if (total <= this.limits.partSize() || plan.parts().size() > PartCutter.MAX_PARTS
						|| options.mode() == WriteMode.APPEND) {
					return Storage.super.concatenate(sources, target, options);
				}
				return claimed(target, options.mode(), key -> checkWritable(target, options.mode())
					.then(multipart(target, key, options.mode(),
							uploadId -> Flux.fromIterable(plan.parts())
								.flatMapSequential(part -> assemble(target, key, uploadId, part, entries),
										this.limits.partsInFlight(), 1)))
					.then(head(target)));
			});
	}

	private Mono<CompletedPart> assemble(StoragePath target, String key, String uploadId,
			ConcatenationPlan.PlannedPart part, List<FileEntry> sources) {
		if (part.copy()) {
			ConcatenationPlan.Slice slice = part.slices().get(0);
			return copyPart(target, key, uploadId, part.number(), this.keys.file(sources.get(slice.source()).path()),
					slice.offset(), slice.length());
		}
		Flux<DataBuffer> bytes = Flux.fromIterable(part.slices())
			.concatMap(slice -> read(sources.get(slice.source()).path(), ByteRange.of(slice.offset(), slice.length())));
		return Mono.defer(() -> {
			PartCutter cutter = new PartCutter(part.size(), part.size());
			return bytes.concatMapIterable(cutter::add, 1)
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
				.then(Mono.fromCallable(cutter::finish));
		})
			.flatMap(gathered -> uploadPart(target, key, uploadId,
					new PartCutter.Part(part.number(), gathered.slabs(), gathered.size(), false)));
	}

	/**
	 * Reports the bucket reachable with the mount's credentials ({@code HeadBucket}), for
	 * the mount's health.
	 */
	@Override
	public Mono<Void> checkHealth() {
		return call(StoragePath.root(), () -> this.client.headBucket(b -> b.bucket(this.bucket))).then();
	}

	/**
	 * Aborts multipart uploads under the mount's prefix begun before a given age: what an
	 * upload left behind when Wharf or the server died before it could abort it (S3
	 * keeps, and bills, such parts until they are aborted).
	 * @param age how old an upload must be; younger ones may still be under way on
	 * another replica
	 * @param clock the time now
	 * @return how many were aborted
	 */
	public Mono<Integer> abortStaleUploads(Duration age, Clock clock) {
		return Mono.defer(() -> {
			Instant before = clock.instant().minus(age);
			return uploadsPage(null, null)
				.expand(page -> Boolean.TRUE.equals(page.isTruncated())
						? uploadsPage(page.nextKeyMarker(), page.nextUploadIdMarker()) : Mono.empty())
				.concatMapIterable(page -> page.uploads())
				.filter(upload -> upload.initiated() != null && upload.initiated().isBefore(before))
				.concatMap(upload -> abortStale(upload))
				.reduce(0, Integer::sum);
		});
	}

	private Mono<software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse> uploadsPage(
			@Nullable String keyMarker, @Nullable String uploadIdMarker) {
		return call(StoragePath.root(),
				() -> this.client.listMultipartUploads(b -> b.bucket(this.bucket)
					.prefix(this.keys.root())
					.keyMarker(keyMarker)
					.uploadIdMarker(uploadIdMarker)));
	}

	private Mono<Integer> abortStale(MultipartUpload upload) {
		return call(StoragePath.root(),
				() -> this.client
					.abortMultipartUpload(b -> b.bucket(this.bucket).key(upload.key()).uploadId(upload.uploadId())))
			.thenReturn(1)
			.onErrorResume(NotFoundException.class, gone -> Mono.just(0));
	}

	/**
	 * Sends one request: started on the callback pool, cancelled with the subscription,
	 * its failure mapped to a storage error.
	 */
	private <T> Mono<T> call(StoragePath path, Supplier<CompletableFuture<T>> request) {
		return Mono.fromFuture(request, false)
			.subscribeOn(this.callbacks)
			.onErrorMap(error -> S3Errors.map(error, path, this.mount));
	}

	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.client.close();
			this.streams.close();
			this.callbacks.dispose();
		}
	}

	@Override
	public String toString() {
		return "S3Storage[" + this.mount + "]";
	}

	/**
	 * Sizes and counts.
	 *
	 * @param partSize the size of an upload's parts
	 * @param partsInFlight parts of one upload or copy sent at once
	 * @param maxListEntries the most entries a listing returns before it fails
	 * @param pageSize keys per listing request (S3's most: 1,000)
	 * @param maxCopyPart the largest object copied in one request, and of one copied part
	 * (S3's most: 5 GB)
	 * @param copyPartSize the part size of a multipart copy
	 */
	record Limits(long partSize, int partsInFlight, int maxListEntries, int pageSize, long maxCopyPart,
			long copyPartSize) {

		/** The limits of a mount's properties, with S3's own. */
		static Limits of(S3StorageProperties properties) {
			return new Limits(properties.partSize().toBytes(), properties.partsInFlight(), properties.maxListEntries(),
					PAGE_SIZE, S3StorageProperties.MAX_PART_SIZE, 512L * 1024 * 1024);
		}

	}

}
