package dev.wharf.core.storage.memcached;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
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
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Files in one or more memcached servers: a flat key space (no folders, no listing, no
 * moves), meant for caches that many Wharf replicas share, such as the build cache.
 *
 * <p>
 * <b>Layout.</b> Each file is one head item under a key derived from its path
 * ({@link MemcachedKeys}). A file up to {@code chunk-size} is kept whole in its head; a
 * larger one is split into chunk items named after the write, and the head, written last,
 * names the write. A replacing write is therefore atomic: readers see the old head or the
 * new one, never a mix; a failed or cancelled write leaves no head (its chunks are
 * deleted, and memcached evicts any it could not delete). Files above
 * {@code max-file-size} are refused with {@link QuotaExceededException} before anything
 * is stored.
 *
 * <p>
 * <b>What memcached may do.</b> memcached evicts items when it needs room, so a file can
 * disappear at any time, and a large file can lose a chunk while its head survives: a
 * read that finds its first chunk gone reports the file as not found (and removes the
 * head); a chunk missing later fails the read with an I/O error rather than returning
 * fewer bytes. A replaced file's old chunks are left for memcached to evict, so a reader
 * still streaming the old version finishes it.
 *
 * <p>
 * <b>Failures.</b> A server that is down or does not answer within
 * {@code operation-timeout} fails the operation at once with
 * {@link BackendUnavailableException}; the client reconnects in the background. Nothing
 * blocks the caller: see {@link MemcachedOperations}. Thread-safe.
 */
public final class MemcachedStorage implements Storage {

	private static final Set<Capability> CAPABILITIES = Collections
		.unmodifiableSet(EnumSet.of(Capability.RANGE_READ, Capability.ATOMIC_WRITE));

	/** Chunks fetched ahead of the one being sent. */
	private static final int READ_AHEAD = 2;

	private static final byte[] EMPTY = new byte[0];

	private static final Log logger = LogFactory.getLog(MemcachedStorage.class);

	private final String mount;

	private final MemcachedOperations operations;

	private final MemcachedKeys keys;

	private final int chunkSize;

	private final long maxFileSize;

	private final List<String> probes;

	private final Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);

	/**
	 * Connects to the servers (waiting at most {@code connect-timeout}, and starting
	 * anyway if they do not answer).
	 * @param mount the mount's name, for keys, thread names and messages
	 * @param properties the mount's properties
	 */
	public MemcachedStorage(String mount, MemcachedStorageProperties properties) {
		this.mount = mount;
		this.keys = new MemcachedKeys(properties.effectiveKeyPrefix(mount));
		this.chunkSize = (int) properties.chunkSize().toBytes();
		this.maxFileSize = properties.maxFileSize().toBytes();
		this.operations = MemcachedOperations.connect(mount, MemcachedServers.resolve(properties.servers()),
				properties);
		this.probes = this.operations.keyPerServer(this.keys.probe());
	}

	@Override
	public Set<Capability> capabilities() {
		return CAPABILITIES;
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		if (path.isRoot()) {
			return Mono.just(new FileEntry(path, EntryType.DIRECTORY, 0, this.created));
		}
		return head(path, this.keys.head(path))
			.map(head -> new FileEntry(path, EntryType.FILE, head.size(), head.modified()));
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return Flux.error(new UnsupportedCapabilityException(Capability.LIST, this.mount));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		if (path.isRoot()) {
			return Flux.error(new ConflictException("Not a file: /"));
		}
		String key = this.keys.head(path);
		return head(path, key).flatMapMany(head -> {
			long length = range.lengthIn(head.size());
			if (length == 0) {
				return Flux.empty();
			}
			long offset = range.offset();
			if (!head.isChunked()) {
				return Flux.just(wrap(head.item(), head.dataOffset() + (int) offset, (int) length));
			}
			long first = offset / head.chunkSize();
			long last = (offset + length - 1) / head.chunkSize();
			return Flux.range(0, (int) (last - first + 1))
				.map(i -> first + i)
				.flatMapSequential(index -> chunk(path, key, head, index, index == first).map(bytes -> {
					long chunkStart = index * head.chunkSize();
					int from = (int) (Math.max(offset, chunkStart) - chunkStart);
					int to = (int) (Math.min(offset + length, chunkStart + bytes.length) - chunkStart);
					return wrap(bytes, from, to - from);
				}), READ_AHEAD, 1)
				// Several chunks in flight fail together when a server dies; the caller
				// wants one typed error.
				.onErrorMap(Exceptions::isMultiple, error -> Exceptions.unwrapMultiple(error).get(0));
		});
	}

	private Mono<byte[]> chunk(StoragePath path, String headKey, EntryHead head, long index, boolean first) {
		return this.operations.get(this.keys.chunk(headKey, head.writeId(), index)).switchIfEmpty(Mono.defer(() -> {
			if (first) {
				// Evicted before anything was sent: the file is gone; so is its now
				// useless head.
				this.operations.delete(headKey).subscribe(null, error -> {
				});
				return Mono.error(new NotFoundException("Not found: " + path));
			}
			return Mono.error(new StorageIoException("Part of " + path + " was evicted from memcached"));
		}))
			.flatMap(bytes -> (bytes.length == head.chunkLength(index)) ? Mono.just(bytes)
					: Mono.error(new StorageIoException("A part of " + path + " in memcached has the wrong length")));
	}

	private static DataBuffer wrap(byte[] bytes, int offset, int length) {
		return DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(bytes, offset, length).slice());
	}

	private Mono<EntryHead> head(StoragePath path, String key) {
		return this.operations.get(key)
			.switchIfEmpty(Mono.error(() -> new NotFoundException("Not found: " + path)))
			.map(item -> decode(path, item));
	}

	private EntryHead decode(StoragePath path, byte[] item) {
		EntryHead head = EntryHead.decode(item);
		if (head == null) {
			logger.warn("Mount '" + this.mount + "': the memcached item for " + path
					+ " was not written by Wharf; treating it as missing");
			throw new NotFoundException("Not found: " + path);
		}
		if (!head.path().equals(path.toString())) {
			throw new NotFoundException("Not found: " + path);
		}
		return head;
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return Mono.defer(() -> {
			if (path.isRoot()) {
				return Mono.error(new ConflictException("Is a folder: /"));
			}
			if (options.mode() == WriteMode.APPEND) {
				return Mono.error(new UnsupportedCapabilityException(Capability.APPEND, this.mount));
			}
			if (options.expectedLength() > this.maxFileSize) {
				return Mono.error(tooLarge(path));
			}
			Upload upload = new Upload(path, this.keys.head(path), options);
			Mono<Void> check = (options.mode() == WriteMode.CREATE_NEW)
					? this.operations.get(upload.headKey)
						.flatMap(existing -> Mono.<Void>error(new AlreadyExistsException("Already exists: " + path)))
					: Mono.empty();
			return check.then(content.concatMap(upload::accept, 1).then(Mono.defer(upload::commit)))
				.doFinally(signal -> upload.discardUnlessCommitted())
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		});
	}

	private QuotaExceededException tooLarge(StoragePath path) {
		return new QuotaExceededException(
				"Mount '" + this.mount + "' stores files up to " + this.maxFileSize + " bytes; " + path + " is larger");
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(path, "delete");
			String key = this.keys.head(path);
			return this.operations.gets(key)
				.switchIfEmpty(Mono.error(() -> new NotFoundException("Not found: " + path)))
				.flatMap(found -> {
					EntryHead head = decode(path, found.getValue());
					// Only this version: a write that replaced it meanwhile counts as
					// coming after the delete.
					return this.operations.delete(key, found.getCas())
						.then(head.isChunked() ? deleteChunks(key, head.writeId(), head.chunkCount()) : Mono.empty());
				});
		});
	}

	private Mono<Void> deleteChunks(String headKey, UUID writeId, long count) {
		return Flux.range(0, (int) count)
			.flatMap(index -> this.operations.delete(this.keys.chunk(headKey, writeId, index))
				.onErrorResume(error -> Mono.empty()), 8)
			.then();
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return Mono.error(new UnsupportedCapabilityException(Capability.DIRECTORIES, this.mount));
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return Mono.error(new UnsupportedCapabilityException(Capability.MODIFICATION_TIME, this.mount));
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return Mono.error(new UnsupportedCapabilityException(Capability.MOVE, this.mount));
	}

	/** Up when every server is connected and answers a read. */
	@Override
	public Mono<Void> checkHealth() {
		return Mono.defer(() -> {
			Collection<SocketAddress> down = this.operations.unavailableServers();
			if (!down.isEmpty()) {
				return Mono.error(new BackendUnavailableException(
						"memcached " + MemcachedOperations.describe(down) + " is not reachable"));
			}
			return Flux.fromIterable(this.probes).flatMap(this.operations::get).then();
		});
	}

	@Override
	public void close() {
		this.operations.close();
	}

	@Override
	public String toString() {
		return "MemcachedStorage[" + this.mount + "]";
	}

	/**
	 * One write in progress: cuts the content into chunks as it arrives (holding at most
	 * one chunk), stores each full chunk before asking for more, and publishes the head
	 * at the end.
	 */
	private final class Upload {

		private final StoragePath path;

		private final String headKey;

		private final WriteOptions options;

		private final UUID writeId = UUID.randomUUID();

		private byte[] current = EMPTY;

		private int fill;

		private long size;

		/** Chunks cut from the content so far. */
		private long cut;

		/** Chunks handed to memcached so far (stored or in flight), for clean-up. */
		private volatile long issued;

		private volatile boolean committed;

		Upload(StoragePath path, String headKey, WriteOptions options) {
			this.path = path;
			this.headKey = headKey;
			this.options = options;
		}

		Mono<Void> accept(DataBuffer buffer) {
			List<byte[]> full = null;
			try {
				int count = buffer.readableByteCount();
				if (this.options.hasExpectedLength() && this.size + count > this.options.expectedLength()) {
					throw new InvalidContentException(
							"Content is longer than the announced " + this.options.expectedLength() + " bytes");
				}
				if (this.size + count > MemcachedStorage.this.maxFileSize) {
					throw tooLarge(this.path);
				}
				this.size += count;
				while (buffer.readableByteCount() > 0) {
					makeRoom(buffer.readableByteCount());
					int n = Math.min(buffer.readableByteCount(), this.current.length - this.fill);
					buffer.read(this.current, this.fill, n);
					this.fill += n;
					if (this.fill == MemcachedStorage.this.chunkSize) {
						if (full == null) {
							full = new ArrayList<>(1);
						}
						full.add(this.current);
						this.current = EMPTY;
						this.fill = 0;
						this.cut++;
					}
				}
			}
			finally {
				DataBufferUtils.release(buffer);
			}
			return (full == null) ? Mono.empty() : Flux.fromIterable(full).concatMap(this::store).then();
		}

		/**
		 * Grows the chunk being filled: to the announced length if known, else by
		 * doubling.
		 */
		private void makeRoom(int wanted) {
			if (this.fill < this.current.length) {
				return;
			}
			int chunk = MemcachedStorage.this.chunkSize;
			long capacity;
			if (this.options.hasExpectedLength()) {
				capacity = Math.min(chunk, this.options.expectedLength() - this.cut * chunk);
			}
			else {
				capacity = Math.min(chunk,
						Math.max(Math.max(2L * this.current.length, 4096), (long) this.fill + wanted));
			}
			this.current = Arrays.copyOf(this.current, (int) Math.max(capacity, this.fill + 1L));
		}

		private Mono<Void> store(byte[] chunk) {
			long index = this.issued;
			this.issued = index + 1;
			return MemcachedStorage.this.operations
				.set(MemcachedStorage.this.keys.chunk(this.headKey, this.writeId, index), chunk);
		}

		Mono<FileEntry> commit() {
			if (this.options.hasExpectedLength() && this.size != this.options.expectedLength()) {
				return Mono.error(new InvalidContentException("Content ended after " + this.size + " of the announced "
						+ this.options.expectedLength() + " bytes"));
			}
			Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
			Mono<Void> rest = Mono.empty();
			byte[] head;
			if (this.cut == 0) {
				head = EntryHead.inline(this.path.toString(), now, this.current, this.fill);
			}
			else {
				if (this.fill > 0) {
					rest = store(
							(this.fill == this.current.length) ? this.current : Arrays.copyOf(this.current, this.fill));
				}
				head = EntryHead.chunked(this.path.toString(), this.size, now, this.writeId,
						MemcachedStorage.this.chunkSize);
			}
			this.current = EMPTY;
			Mono<Boolean> publish = (this.options.mode() == WriteMode.CREATE_NEW)
					? MemcachedStorage.this.operations.add(this.headKey, head)
					: MemcachedStorage.this.operations.set(this.headKey, head).thenReturn(true);
			return rest.then(publish).map(stored -> {
				if (!stored) {
					throw new AlreadyExistsException("Already exists: " + this.path);
				}
				this.committed = true;
				return new FileEntry(this.path, EntryType.FILE, this.size, now);
			});
		}

		void discardUnlessCommitted() {
			if (!this.committed && this.issued > 0) {
				deleteChunks(this.headKey, this.writeId, this.issued).subscribe(null, error -> {
				});
			}
		}

	}

}
