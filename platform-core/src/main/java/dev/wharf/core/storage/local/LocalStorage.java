package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.FileKey;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageSupport;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.support.BlockingOpen;
import dev.wharf.core.storage.support.ChannelReads;
import dev.wharf.core.storage.support.ChannelWrites;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A folder on this host as a {@link Storage}. Writes go to a temporary file in the
 * target's own folder and are renamed into place only when complete (so readers never see
 * half a file and a failed or cancelled write leaves nothing); links out of the root, and
 * dangling links, are refused (see {@link RootedPaths}); all file-system calls run on the
 * mount's own bounded scheduler.
 */
public final class LocalStorage implements Storage {

	/** Prefix of temporary files; reserved, so never listed or addressable. */
	static final String TEMP_PREFIX = StoragePath.RESERVED_PREFIX + "-tmp-";

	private static final Set<Capability> CAPABILITIES = Collections.unmodifiableSet(EnumSet.of(Capability.LIST,
			Capability.DIRECTORIES, Capability.RANGE_READ, Capability.ATOMIC_WRITE, Capability.APPEND, Capability.MOVE,
			Capability.ATOMIC_MOVE, Capability.NATIVE_COPY, Capability.LOCAL_FILE, Capability.MODIFICATION_TIME));

	private static final Log logger = LogFactory.getLog(LocalStorage.class);

	private final String mount;

	private final RootedPaths paths;

	private final boolean syncWrites;

	private final Scheduler io;

	/**
	 * Creates the storage; the root folder must exist.
	 * @param mount the mount's name, for thread names and messages
	 * @param root the root folder
	 * @param syncWrites whether to flush files before they become visible
	 * @param ioThreads most threads for blocking I/O
	 * @throws IOException if the root cannot be resolved
	 */
	public LocalStorage(String mount, Path root, boolean syncWrites, int ioThreads) throws IOException {
		this.mount = mount;
		this.paths = new RootedPaths(root);
		this.syncWrites = syncWrites;
		this.io = BlockingScheduler.create("wharf-local-" + mount, ioThreads, ioThreads * 100_000);
	}

	@Override
	public Set<Capability> capabilities() {
		return CAPABILITIES;
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return blocking(path, () -> {
			Path real = this.paths.existing(path);
			return entry(path, Files.readAttributes(real, BasicFileAttributes.class));
		});
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return Flux.using(() -> {
			Path real = this.paths.existing(directory);
			if (!Files.isDirectory(real)) {
				throw new ConflictException("Not a folder: " + directory);
			}
			return Files.newDirectoryStream(real);
		}, (DirectoryStream<Path> children) -> Flux.fromIterable(children)
			.mapNotNull(child -> listed(directory, child)), this::closeQuietly)
			.subscribeOn(this.io)
			.onErrorMap(error -> LocalErrors.map(error, directory));
	}

	private @Nullable FileEntry listed(StoragePath directory, Path child) {
		String name = child.getFileName().toString();
		if (!StoragePath.isValidName(name)) {
			return null;
		}
		StoragePath path = directory.resolve(name);
		try {
			BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class,
					LinkOption.NOFOLLOW_LINKS);
			if (attributes.isSymbolicLink()) {
				try {
					Path real = child.toRealPath();
					if (real.startsWith(this.paths.root())) {
						return entry(path, Files.readAttributes(real, BasicFileAttributes.class));
					}
				}
				catch (IOException dangling) {
					// Reported as OTHER below, like a link out of the root.
				}
				return new FileEntry(path, EntryType.OTHER, 0, attributes.lastModifiedTime().toInstant());
			}
			return entry(path, attributes);
		}
		catch (IOException vanished) {
			return null;
		}
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return ChannelReads.read(() -> {
			Path real = this.paths.existing(path);
			if (!Files.isRegularFile(real)) {
				throw new ConflictException("Not a file: " + path);
			}
			FileChannel channel = FileChannel.open(real, StandardOpenOption.READ);
			try {
				channel.position(range.offset());
			}
			catch (IOException ex) {
				channel.close();
				throw ex;
			}
			return channel;
		}, range.length(), this.io, error -> LocalErrors.map(error, path))
			.onErrorMap(error -> LocalErrors.map(error, path));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		if (options.mode() == WriteMode.APPEND) {
			return append(path, content, options);
		}
		// A cancel that arrives while the temporary file is being opened never reaches
		// usingWhen's cleanup:
		// BlockingOpen deletes such a file.
		return Mono
			.usingWhen(
					BlockingOpen
						.open(() -> TempFile.open(this.paths, path, options.mode()), TempFile::discardQuietly, this.io)
						.onErrorMap(error -> LocalErrors.map(error, path)),
					temp -> ChannelWrites.write(content, temp.openChannel(), options.expectedLength(), this.io)
						.then(blocking(path, () -> commit(temp, path, options.mode()))),
					temp -> discard(path, temp), (temp, error) -> discard(path, temp), temp -> discard(path, temp))
			.onErrorMap(error -> LocalErrors.map(error, path));
	}

	private FileEntry commit(TempFile temp, StoragePath path, WriteMode mode) throws IOException {
		FileChannel channel = temp.channel();
		if (channel != null) {
			if (this.syncWrites) {
				channel.force(true);
			}
			channel.close();
		}
		Path target = temp.target();
		if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
			throw new ConflictException("Is a folder: " + path);
		}
		if (mode == WriteMode.CREATE_NEW) {
			createWithoutReplacing(temp.file(), target, path);
		}
		else if (this.syncWrites) {
			// Flushed above, so a rename over the target has nothing left to write out.
			Files.move(temp.file(), target, StandardCopyOption.ATOMIC_MOVE);
		}
		else {
			UnflushedReplace.replace(temp.file(), target, path);
		}
		temp.committed();
		syncParentFolder(target);
		return entry(path, Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
	}

	private static void createWithoutReplacing(Path file, Path target, StoragePath path) throws IOException {
		try {
			// A hard link fails if the target exists, so checking and publishing are one
			// atomic step.
			Files.createLink(target, file);
			Files.delete(file);
		}
		catch (FileAlreadyExistsException ex) {
			throw new AlreadyExistsException("Already exists: " + path, ex);
		}
		catch (UnsupportedOperationException | FileSystemException ex) {
			if (ex instanceof FileSystemException fs && RootedPaths.exists(target)) {
				throw new AlreadyExistsException("Already exists: " + path, fs);
			}
			// File systems without hard links: a check then a rename, with a small race
			// between the two.
			if (RootedPaths.exists(target)) {
				throw new AlreadyExistsException("Already exists: " + path);
			}
			Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
		}
	}

	/** Flushes the folder that an entry was just renamed into. */
	private void syncParentFolder(Path entry) {
		// Every entry is below the mount's root folder, so it has a parent.
		syncFolder(Objects.requireNonNull(entry.getParent(), "An entry without a parent folder"));
	}

	private void syncFolder(Path folder) {
		if (!this.syncWrites) {
			return;
		}
		try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException | UnsupportedOperationException ex) {
			// Some file systems cannot sync a folder; the file itself was flushed.
		}
	}

	private Mono<Void> discard(StoragePath path, TempFile temp) {
		return blocking(path, () -> {
			temp.discard();
			return null;
		});
	}

	private Mono<FileEntry> append(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return Mono.usingWhen(
				BlockingOpen.open(() -> Appender.open(this.paths, path), Appender::rollBackQuietly, this.io)
					.onErrorMap(error -> LocalErrors.map(error, path)),
				appender -> ChannelWrites.write(content, appender.channel(), options.expectedLength(), this.io)
					.then(blocking(path, () -> {
						if (this.syncWrites) {
							appender.channel().force(true);
						}
						appender.close();
						return entry(path, Files.readAttributes(appender.file(), BasicFileAttributes.class));
					})),
				appender -> blocking(path, appender::closeQuietly),
				(appender, error) -> blocking(path, appender::rollBack), appender -> blocking(path, appender::rollBack))
			.onErrorMap(error -> LocalErrors.map(error, path));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(path, "delete");
			return blocking(path, () -> {
				// The entry itself, never what a link points to: removing a link is
				// always safe.
				Path target = this.paths.parentFolder(path).resolve(path.name());
				if (!RootedPaths.exists(target)) {
					throw new NotFoundException("Not found: " + path);
				}
				if (recursive && Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
					deleteTree(target);
				}
				else {
					Files.delete(target);
				}
				return null;
			});
		});
	}

	private static void deleteTree(Path folder) throws IOException {
		Files.walkFileTree(folder, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
				Files.delete(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException error) throws IOException {
				if (error != null) {
					throw error;
				}
				Files.delete(dir);
				return FileVisitResult.CONTINUE;
			}

		});
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return blocking(path, () -> {
			if (path.isRoot()) {
				throw new AlreadyExistsException("Already exists: /");
			}
			Path folder = this.paths.parentFolder(path).resolve(path.name());
			Files.createDirectory(folder);
			return entry(path, Files.readAttributes(folder, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
		});
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(source, "move");
			StorageSupport.requireNotInside(source, target);
			return blocking(source, () -> {
				Path from = this.paths.parentFolder(source).resolve(source.name());
				if (!RootedPaths.exists(from)) {
					throw new NotFoundException("Not found: " + source);
				}
				Path to = this.paths.entry(target);
				if (RootedPaths.exists(to)) {
					if (!replace || Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
						throw new AlreadyExistsException("Already exists: " + target);
					}
					if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
						throw new ConflictException("Cannot replace the file " + target + " with a folder");
					}
				}
				try {
					Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
				}
				catch (AtomicMoveNotSupportedException ex) {
					throw new ConflictException("Cannot move " + source + " across file systems", ex);
				}
				syncParentFolder(to);
				return entry(target, Files.readAttributes(to, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
			});
		});
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return StorageSupport.copyTree(this, source, target, replace, (file, to, overwrite) -> {
			WriteMode mode = overwrite ? WriteMode.REPLACE : WriteMode.CREATE_NEW;
			return Mono.usingWhen(blocking(to, () -> TempFile.reserve(this.paths, to, mode)),
					temp -> blocking(to, () -> {
						Files.copy(this.paths.existing(file.path()), temp.file());
						return commit(temp, to, mode);
					}), temp -> discard(to, temp), (temp, error) -> discard(to, temp), temp -> discard(to, temp));
		});
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return blocking(path, () -> {
			// The real path: links are resolved and checked to stay in the root, as for
			// stat.
			Path real = this.paths.existing(path);
			Files.setLastModifiedTime(real, FileTime.from(time));
			return entry(path, Files.readAttributes(real, BasicFileAttributes.class));
		});
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return blocking(path, () -> {
			Path real = this.paths.existing(path);
			if (!Files.isRegularFile(real)) {
				throw new ConflictException("Not a file: " + path);
			}
			return real;
		});
	}

	/**
	 * Deletes temporary files that a crashed process left behind, in the background.
	 * @param olderThan only files not modified for this long, so writes in progress
	 * elsewhere survive
	 * @return completes when done
	 */
	Mono<Void> sweepTemporaryFiles(Duration olderThan) {
		return blocking(StoragePath.root(), () -> {
			FileTime limit = FileTime.from(Instant.now().minus(olderThan));
			Files.walkFileTree(this.paths.root(), new SimpleFileVisitor<>() {

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
					if (file.getFileName().toString().startsWith(TEMP_PREFIX)
							&& attributes.lastModifiedTime().compareTo(limit) < 0) {
						Files.deleteIfExists(file);
						logger.info("Mount '" + LocalStorage.this.mount + "': removed an abandoned temporary file");
					}
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFileFailed(Path file, IOException ex) {
					return FileVisitResult.CONTINUE;
				}

			});
			return null;
		});
	}

	@Override
	public void close() {
		this.io.dispose();
	}

	@Override
	public String toString() {
		return "LocalStorage[" + this.mount + "]";
	}

	private <T> Mono<T> blocking(StoragePath path, IoCall<T> call) {
		return Mono.fromCallable(call::call).subscribeOn(this.io).onErrorMap(error -> LocalErrors.map(error, path));
	}

	private void closeQuietly(DirectoryStream<Path> stream) {
		try {
			stream.close();
		}
		catch (IOException ex) {
			// Read-only handle: nothing to lose.
		}
	}

	private static FileEntry entry(StoragePath path, BasicFileAttributes attributes) {
		EntryType type = attributes.isRegularFile() ? EntryType.FILE
				: attributes.isDirectory() ? EntryType.DIRECTORY : EntryType.OTHER;
		long size = (type == EntryType.FILE) ? attributes.size() : 0;
		// The device and inode on Unix: the same for every link to a folder, so walks
		// notice link loops.
		Object fileKey = attributes.fileKey();
		return new FileEntry(path, type, size, attributes.lastModifiedTime().toInstant(),
				(fileKey != null) ? FileKey.of(fileKey) : null);
	}

	@FunctionalInterface
	private interface IoCall<T> {

		@Nullable T call() throws IOException;

	}

	/**
	 * A temporary file beside a write's target, renamed over it on commit and deleted
	 * otherwise.
	 */
	private static final class TempFile {

		private final Path target;

		private final Path file;

		private final @Nullable FileChannel channel;

		private volatile boolean committed;

		private TempFile(Path target, Path file, @Nullable FileChannel channel) {
			this.target = target;
			this.file = file;
			this.channel = channel;
		}

		/**
		 * Checks the target and reserves a temporary name beside it, without creating it.
		 */
		static TempFile reserve(RootedPaths paths, StoragePath path, WriteMode mode) throws IOException {
			Path target = paths.entry(path);
			if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
				throw new ConflictException("Is a folder: " + path);
			}
			if (mode == WriteMode.CREATE_NEW && RootedPaths.exists(target)) {
				throw new AlreadyExistsException("Already exists: " + path);
			}
			return new TempFile(target, target.resolveSibling(TEMP_PREFIX + UUID.randomUUID()), null);
		}

		/** Checks the target and creates an open temporary file beside it. */
		static TempFile open(RootedPaths paths, StoragePath path, WriteMode mode) throws IOException {
			TempFile reserved = reserve(paths, path, mode);
			FileChannel channel = FileChannel.open(reserved.file, StandardOpenOption.CREATE_NEW,
					StandardOpenOption.WRITE);
			return new TempFile(reserved.target, reserved.file, channel);
		}

		Path target() {
			return this.target;
		}

		Path file() {
			return this.file;
		}

		@Nullable FileChannel channel() {
			return this.channel;
		}

		/**
		 * The channel of a temporary file that {@link #open} created; a reserved one has
		 * none.
		 */
		FileChannel openChannel() {
			return Objects.requireNonNull(this.channel, "A reserved temporary file has no channel");
		}

		void committed() {
			this.committed = true;
		}

		void discardQuietly() {
			try {
				discard();
			}
			catch (IOException ex) {
				logger.warn("Could not remove an abandoned temporary file; it goes at the next start");
			}
		}

		void discard() throws IOException {
			if (this.channel != null) {
				this.channel.close();
			}
			if (!this.committed) {
				Files.deleteIfExists(this.file);
			}
		}

	}

	/**
	 * An open file being appended to, which a failed append truncates back to its
	 * original length.
	 */
	private static final class Appender {

		private final Path file;

		private final FileChannel channel;

		private final long originalSize;

		private final boolean created;

		private Appender(Path file, FileChannel channel, long originalSize, boolean created) {
			this.file = file;
			this.channel = channel;
			this.originalSize = originalSize;
			this.created = created;
		}

		static Appender open(RootedPaths paths, StoragePath path) throws IOException {
			Path target = paths.entry(path);
			if (RootedPaths.isLink(target)) {
				target = paths.existing(path);
			}
			if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
				throw new ConflictException("Is a folder: " + path);
			}
			boolean created = !RootedPaths.exists(target);
			FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
					StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
			return new Appender(target, channel, channel.size(), created);
		}

		Path file() {
			return this.file;
		}

		FileChannel channel() {
			return this.channel;
		}

		void close() throws IOException {
			this.channel.close();
		}

		@Nullable Void closeQuietly() throws IOException {
			this.channel.close();
			return null;
		}

		void rollBackQuietly() {
			try {
				rollBack();
			}
			catch (IOException ex) {
				logger.warn("Could not undo an abandoned append", ex);
			}
		}

		@Nullable Void rollBack() throws IOException {
			try {
				if (this.channel.isOpen()) {
					this.channel.truncate(this.originalSize);
				}
			}
			finally {
				this.channel.close();
				if (this.created && Files.size(this.file) == 0) {
					Files.deleteIfExists(this.file);
				}
			}
			return null;
		}

	}

}
