package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

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
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.FileMode;
import net.schmizz.sshj.sftp.OpenMode;
import net.schmizz.sshj.sftp.RemoteFile;
import net.schmizz.sshj.sftp.RemoteResourceInfo;
import net.schmizz.sshj.sftp.RenameFlags;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * A folder on an SFTP server as a {@link Storage}, through sshj. Every path is confined
 * to the mount's root before any call reaches the server, links included (see
 * {@link RemotePaths}); every sshj call runs on the mount's bounded I/O scheduler over
 * pooled connections (see {@link SftpConnectionPool}).
 *
 * <p>
 * <b>Writes</b> stream to a temporary file ({@code .wharf-tmp-*}, reserved so never
 * listed) in the target's folder, which is renamed into place only when complete; a
 * failed or cancelled write deletes it (or, if the connection broke, deletes it through
 * the next working connection). Replacing an existing file uses OpenSSH's
 * {@code posix-rename@openssh.com}, which is atomic. A server without it cannot rename
 * over a file (SFTP version 3), so Wharf then moves the old file aside to a temporary
 * name, renames the new one into place and deletes the old one: readers never see a
 * partial file, but may find no file for the moment between the two renames, and the
 * mount does not claim {@link Capability#ATOMIC_WRITE}. A new file
 * ({@link WriteMode#CREATE_NEW}) is published with a plain rename, which the SFTP
 * protocol defines to fail if the target exists (OpenSSH does it with a hard link), so
 * exactly one of concurrent creators wins.
 *
 * <p>
 * <b>Reads</b> keep several requests in flight ({@link RemoteChannels#READ_AHEAD}) and
 * hand out buffers only as the subscriber asks for them. Copies stream through Wharf
 * (SFTP version 3 has no server-side copy); there are no local files.
 */
public final class SftpStorage implements Storage {

	/** Prefix of temporary files; reserved, so never listed or addressable. */
	static final String TEMP_PREFIX = StoragePath.RESERVED_PREFIX + "-tmp-";

	private static final Set<Capability> BASE_CAPABILITIES = Collections
		.unmodifiableSet(EnumSet.of(Capability.LIST, Capability.DIRECTORIES, Capability.RANGE_READ, Capability.APPEND,
				Capability.MOVE, Capability.MODIFICATION_TIME));

	private static final Set<Capability> ATOMIC_CAPABILITIES;

	static {
		EnumSet<Capability> atomic = EnumSet.copyOf(BASE_CAPABILITIES);
		atomic.add(Capability.ATOMIC_WRITE);
		atomic.add(Capability.ATOMIC_MOVE);
		ATOMIC_CAPABILITIES = Collections.unmodifiableSet(atomic);
	}

	/**
	 * How often a replace without {@code posix-rename} is tried while concurrent writers
	 * get in its way.
	 */
	private static final int MAX_REPLACE_ATTEMPTS = 5;

	private static final Set<RenameFlags> NO_FLAGS = Collections.unmodifiableSet(EnumSet.noneOf(RenameFlags.class));

	private static final Log logger = LogFactory.getLog(SftpStorage.class);

	private final String mount;

	private final SftpPools pools;

	private final Scheduler io;

	private final Set<Capability> capabilities;

	private final boolean usePosixRename;

	private volatile boolean warnedNoPosixRename;

	/**
	 * Creates the storage.
	 * @param mount the mount's name, for messages
	 * @param pools the mount's connections
	 * @param io the bounded scheduler every sshj call runs on; disposed by
	 * {@link #close()}
	 * @param atomicRename whether the server is known to offer
	 * {@code posix-rename@openssh.com}, so the mount can promise atomic replacing writes
	 * and moves
	 * @param usePosixRename whether to use that extension where offered; {@code false}
	 * only to test the way without it
	 */
	SftpStorage(String mount, SftpPools pools, Scheduler io, boolean atomicRename, boolean usePosixRename) {
		this.mount = mount;
		this.pools = pools;
		this.io = io;
		this.usePosixRename = usePosixRename;
		this.capabilities = (atomicRename && usePosixRename) ? ATOMIC_CAPABILITIES : BASE_CAPABILITIES;
	}

	@Override
	public Set<Capability> capabilities() {
		return this.capabilities;
	}

	@Override
	public boolean needsUserCredentials() {
		return this.pools.isPassthrough();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return call(path, lease -> {
			SftpEngine engine = lease.connection().engine();
			String real = lease.connection().paths().real(engine, path);
			return entry(path, engine.stat(real), real);
		});
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return call(directory, lease -> listing(lease.connection(), directory)).flatMapIterable(entries -> entries);
	}

	private List<FileEntry> listing(SftpConnection connection, StoragePath directory) throws IOException {
		SftpEngine engine = connection.engine();
		RemoteFolders.Listing listing;
		try {
			listing = RemoteFolders.list(engine, connection.paths(), directory);
		}
		catch (SFTPException ex) {
			if (!SftpErrors.isConnectionFailure(ex) && isNotFolder(engine, connection.paths().lexical(directory))) {
				throw new ConflictException("Not a folder: " + directory, ex);
			}
			throw ex;
		}
		String folder = listing.folder();
		List<RemoteResourceInfo> children = listing.entries();
		List<FileEntry> entries = new ArrayList<>(children.size());
		for (RemoteResourceInfo child : children) {
			String name = child.getName();
			if (StoragePath.isValidName(name)) {
				StoragePath path = directory.resolve(name);
				FileAttributes attributes = child.getAttributes();
				String remote = RemotePaths.child(folder, name);
				entries.add((attributes.getType() == FileMode.Type.SYMLINK)
						? linked(connection, path, remote, attributes) : entry(path, attributes, remote));
			}
		}
		return entries;
	}

	private static boolean isNotFolder(SftpEngine engine, String remote) throws IOException {
		FileAttributes attributes;
		try {
			attributes = engine.stat(remote);
		}
		catch (SFTPException ex) {
			if (SftpErrors.isConnectionFailure(ex)) {
				throw ex;
			}
			return false;
		}
		return attributes.getType() != FileMode.Type.DIRECTORY;
	}

	/**
	 * A link's entry: what it leads to if that is inside the root,
	 * {@link EntryType#OTHER} otherwise.
	 */
	private static FileEntry linked(SftpConnection connection, StoragePath path, String remote, FileAttributes link)
			throws IOException {
		SftpEngine engine = connection.engine();
		try {
			String real = engine.canonicalize(remote);
			if (connection.paths().contains(real)) {
				return entry(path, engine.stat(real), real);
			}
		}
		catch (SFTPException ex) {
			if (SftpErrors.isConnectionFailure(ex)) {
				throw ex;
			}
			// A dangling link or a loop: reported as OTHER below, like a link out of the
			// root.
		}
		return new FileEntry(path, EntryType.OTHER, 0, modified(link));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return Flux
			.deferContextual(context -> ChannelReads.read(() -> openForReading(context, path, range), range.length(),
					this.io, UncheckedIOException::new))
			.onErrorMap(error -> SftpErrors.map(error, path, this.mount));
	}

	private ReadableByteChannel openForReading(ContextView context, StoragePath path, ByteRange range)
			throws IOException {
		return this.pools.acquire(context).open(lease -> {
			SftpConnection connection = lease.connection();
			SftpEngine engine = connection.engine();
			String real = connection.paths().real(engine, path);
			if (engine.stat(real).getType() != FileMode.Type.REGULAR) {
				throw new ConflictException("Not a file: " + path);
			}
			RemoteFile file = engine.open(real, EnumSet.of(OpenMode.READ));
			return RemoteChannels.reader(file, range.offset(), range.length(), lease, this.io);
		});
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		if (options.mode() == WriteMode.APPEND) {
			return append(path, content, options);
		}
		// BlockingOpen: an upload whose client cancels while it starts is undone, its
		// connection given back.
		return Mono
			.deferContextual(context -> Mono.usingWhen(
					BlockingOpen.open(() -> Upload.start(this.pools.acquire(context), path, options.mode()),
							upload -> upload.undo(null), this.io),
					upload -> ChannelWrites.write(content, upload.channel, options.expectedLength(), this.io)
						.then(blocking(() -> commit(upload, path))),
					upload -> blocking(upload::release), (upload, error) -> blocking(() -> upload.undo(error)),
					upload -> blocking(() -> upload.undo(null))))
			.onErrorMap(error -> SftpErrors.map(error, path, this.mount));
	}

	private @Nullable FileEntry commit(Upload upload, StoragePath path) throws IOException {
		return upload.lease.run(lease -> {
			FileAttributes written = upload.finish();
			if (upload.mode == WriteMode.CREATE_NEW) {
				renameWithoutReplacing(lease.connection().engine(), upload.temp, upload.target.remote(), path);
			}
			else {
				replace(lease, upload.temp, upload.target, path);
			}
			upload.committed = true;
			return entry(path, written, upload.target.remote());
		});
	}

	private static void renameWithoutReplacing(SftpEngine engine, String from, String to, StoragePath target)
			throws IOException {
		try {
			engine.rename(from, to, NO_FLAGS);
		}
		catch (SFTPException ex) {
			if (!SftpErrors.isConnectionFailure(ex) && RemotePaths.lstatOrNull(engine, to) != null) {
				throw new AlreadyExistsException("Already exists: " + target, ex);
			}
			throw ex;
		}
	}

	/**
	 * Renames a file over an existing entry: atomically where the server offers
	 * {@code posix-rename}, else by moving the existing file aside, renaming the new one
	 * into place and deleting the old one (retried a few times if concurrent writers
	 * publish in between; the last one wins).
	 */
	private void replace(SftpConnectionPool.Lease lease, String from, RemotePaths.Entry target, StoragePath path)
			throws IOException {
		SftpConnection connection = lease.connection();
		SftpEngine engine = connection.engine();
		if (this.usePosixRename && connection.hasPosixRename()) {
			engine.rename(from, target.remote(), EnumSet.of(RenameFlags.OVERWRITE));
			return;
		}
		if (this.capabilities.contains(Capability.ATOMIC_WRITE) && !this.warnedNoPosixRename) {
			this.warnedNoPosixRename = true;
			logger.warn("Mount '" + this.mount + "': the SFTP server no longer offers posix-rename@openssh.com; "
					+ "replacing files is no longer atomic");
		}
		SFTPException last = null;
		for (int attempt = 1; attempt <= MAX_REPLACE_ATTEMPTS; attempt++) {
			try {
				engine.rename(from, target.remote(), NO_FLAGS);
				return;
			}
			catch (SFTPException ex) {
				last = requireRetryable(ex);
			}
			String aside = RemotePaths.child(target.folder(), TEMP_PREFIX + UUID.randomUUID());
			try {
				engine.rename(target.remote(), aside, NO_FLAGS);
			}
			catch (SFTPException ex) {
				// Another writer moved or replaced it first: try again.
				last = requireRetryable(ex);
				continue;
			}
			try {
				engine.rename(from, target.remote(), NO_FLAGS);
				deleteAside(lease, aside);
				return;
			}
			catch (SFTPException ex) {
				if (SftpErrors.isConnectionFailure(ex)) {
					logger.warn("Mount '" + this.mount + "': the connection broke while replacing " + path
							+ "; its old content may be left in a .wharf-tmp-* file beside it");
				}
				last = requireRetryable(ex);
			}
			// A concurrent writer published a newer file meanwhile; put the old one back
			// unless it did.
			try {
				engine.rename(aside, target.remote(), NO_FLAGS);
			}
			catch (SFTPException ex) {
				requireRetryable(ex);
				deleteAside(lease, aside);
			}
		}
		throw new ConflictException("Too many concurrent writes to " + path + ", try again", last);
	}

	/**
	 * Lets a failed rename be retried if it failed the way a rename over an existing file
	 * does (SFTP version 3 has no better status for it than a generic failure).
	 */
	private static SFTPException requireRetryable(SFTPException error) throws SFTPException {
		Response.StatusCode status = error.getStatusCode();
		if (status != Response.StatusCode.FAILURE && status != Response.StatusCode.FILE_ALREADY_EXISTS
				&& status != Response.StatusCode.NO_SUCH_FILE) {
			throw error;
		}
		return error;
	}

	private static void deleteAside(SftpConnectionPool.Lease lease, String aside) {
		try {
			lease.connection().engine().remove(aside);
		}
		catch (IOException ex) {
			lease.failed(ex);
			lease.pool().deleteLater(aside);
		}
	}

	private Mono<FileEntry> append(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return Mono
			.deferContextual(context -> Mono.usingWhen(
					BlockingOpen.open(() -> Appender.start(this.pools.acquire(context), path),
							appender -> appender.undo(null), this.io),
					appender -> ChannelWrites.write(content, appender.channel, options.expectedLength(), this.io)
						.then(blocking(() -> appender.commit(path))),
					appender -> blocking(appender::release), (appender, error) -> blocking(() -> appender.undo(error)),
					appender -> blocking(() -> appender.undo(null))))
			.onErrorMap(error -> SftpErrors.map(error, path, this.mount));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(path, "delete");
			return call(path, lease -> {
				SftpConnection connection = lease.connection();
				SftpEngine engine = connection.engine();
				// The entry itself, never what a link points to: removing a link is
				// always safe.
				RemotePaths.Entry entry = connection.paths().entry(engine, path, false);
				if (!entry.exists()) {
					throw new NotFoundException("Not found: " + path);
				}
				if (!entry.isDirectory()) {
					engine.remove(entry.remote());
				}
				else if (recursive) {
					deleteTree(engine, entry.remote());
				}
				else {
					removeEmptyFolder(engine, entry.remote(), path);
				}
				return null;
			});
		}).then();
	}

	private static void removeEmptyFolder(SftpEngine engine, String remote, StoragePath path) throws IOException {
		try {
			engine.removeDir(remote);
		}
		catch (SFTPException ex) {
			if (SftpErrors.isConnectionFailure(ex)) {
				throw ex;
			}
			if (!RemoteFolders.list(engine, remote).isEmpty()) {
				throw new ConflictException("Folder is not empty: " + path, ex);
			}
			throw ex;
		}
	}

	/** Deletes a folder and everything in it, never following links. */
	private static void deleteTree(SftpEngine engine, String folder) throws IOException {
		for (RemoteResourceInfo child : RemoteFolders.list(engine, folder)) {
			String remote = RemotePaths.child(folder, child.getName());
			if (child.getAttributes().getType() == FileMode.Type.DIRECTORY) {
				deleteTree(engine, remote);
			}
			else {
				engine.remove(remote);
			}
		}
		engine.removeDir(folder);
	}

	/** SFTP (version 3) carries times as unsigned 32-bit seconds. */
	private static final long MAX_TIME = 0xFFFFFFFFL;

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		if (time.getEpochSecond() < 0 || time.getEpochSecond() > MAX_TIME) {
			return Mono.error(new ConflictException("An SFTP server keeps modification times from 1970 to 2106 only"));
		}
		return call(path, lease -> {
			SftpEngine engine = lease.connection().engine();
			String real = lease.connection().paths().real(engine, path);
			// The access time goes in the same attribute and is kept as it was.
			FileAttributes before = engine.stat(real);
			engine.setAttributes(real,
					new FileAttributes.Builder().withAtimeMtime(before.getAtime(), time.getEpochSecond()).build());
			return entry(path, engine.stat(real), real);
		});
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return call(path, lease -> {
			SftpConnection connection = lease.connection();
			if (path.isRoot()) {
				throw new AlreadyExistsException("Already exists: /");
			}
			SftpEngine engine = connection.engine();
			String remote = RemotePaths.child(connection.paths().parentFolder(engine, path), path.name());
			try {
				engine.makeDir(remote);
			}
			catch (SFTPException ex) {
				if (!SftpErrors.isConnectionFailure(ex) && RemotePaths.lstatOrNull(engine, remote) != null) {
					throw new AlreadyExistsException("Already exists: " + path, ex);
				}
				throw ex;
			}
			return entry(path, engine.lstat(remote), remote);
		});
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return Mono.defer(() -> {
			StorageSupport.requireNotRoot(source, "move");
			StorageSupport.requireNotInside(source, target);
			return call(source, lease -> {
				SftpConnection connection = lease.connection();
				SftpEngine engine = connection.engine();
				RemotePaths.Entry from = connection.paths().entry(engine, source, false);
				if (!from.exists()) {
					throw new NotFoundException("Not found: " + source);
				}
				RemotePaths.Entry to = targetEntry(connection, target);
				if (!to.exists()) {
					renameWithoutReplacing(engine, from.remote(), to.remote(), target);
				}
				else if (!replace || to.isDirectory()) {
					throw new AlreadyExistsException("Already exists: " + target);
				}
				else if (from.isDirectory()) {
					throw new ConflictException("Cannot replace the file " + target + " with a folder");
				}
				else {
					replace(lease, from.remote(), to, target);
				}
				return entryAt(connection, target, to.remote());
			});
		});
	}

	private static RemotePaths.Entry targetEntry(SftpConnection connection, StoragePath target) throws IOException {
		try {
			return connection.paths().entry(connection.engine(), target, true);
		}
		catch (SFTPException ex) {
			if (ex.getStatusCode() == Response.StatusCode.NO_SUCH_FILE) {
				throw new NotFoundException("Not found: " + target.parent(), ex);
			}
			throw ex;
		}
	}

	/**
	 * The entry at a path whose server path is known, following a link there if it stays
	 * in the root.
	 */
	private static FileEntry entryAt(SftpConnection connection, StoragePath path, String remote) throws IOException {
		FileAttributes attributes = connection.engine().lstat(remote);
		return (attributes.getType() == FileMode.Type.SYMLINK) ? linked(connection, path, remote, attributes)
				: entry(path, attributes, remote);
	}

	@Override
	public Mono<Void> checkHealth() {
		if (!this.pools.isPassthrough()) {
			return stat(StoragePath.root()).then();
		}
		// Without a user there is no login; check that the server answers and proves its
		// identity.
		SftpConnector connector = this.pools.connector();
		return Mono.fromRunnable(connector::checkReachable)
			.subscribeOn(this.io)
			.onErrorMap(error -> SftpErrors.map(error, StoragePath.root(), this.mount))
			.then();
	}

	/** How many connections are open or opening, over every login. For tests. */
	int connections() {
		return this.pools.connections();
	}

	/** How many users have connections (passthrough). For tests. */
	long users() {
		return this.pools.users();
	}

	@Override
	public void close() {
		this.pools.close();
		this.io.dispose();
	}

	@Override
	public String toString() {
		return "SftpStorage[" + this.mount + "]";
	}

	/**
	 * Runs an operation on one of this mount's pooled connections, at once on the calling
	 * thread, for tests that look at a connection: opens one if none is.
	 */
	<T> @Nullable T onPooledConnection(SftpConnectionPool.Operation<T> operation) throws IOException {
		try (SftpConnectionPool.Lease lease = this.pools.acquire(Context.empty())) {
			return lease.run(operation);
		}
	}

	/** Runs one operation on a pooled connection, on the I/O scheduler. */
	private <T> Mono<T> call(StoragePath path, SftpConnectionPool.Operation<T> operation) {
		return Mono.deferContextual(context -> Mono.fromCallable(() -> {
			try (SftpConnectionPool.Lease lease = this.pools.acquire(context)) {
				return lease.run(operation);
			}
		}).subscribeOn(this.io)).onErrorMap(error -> SftpErrors.map(error, path, this.mount));
	}

	private <T> Mono<T> blocking(IoCall<T> call) {
		return Mono.fromCallable(call::call).subscribeOn(this.io);
	}

	/**
	 * An entry from its attributes.
	 * @param remote its canonical server path: every link on the way resolved, so the
	 * same for every link to a folder, which lets walks notice link loops
	 */
	private static FileEntry entry(StoragePath path, FileAttributes attributes, String remote) {
		EntryType type = switch (attributes.getType()) {
			case REGULAR -> EntryType.FILE;
			case DIRECTORY -> EntryType.DIRECTORY;
			default -> EntryType.OTHER;
		};
		long size = (type == EntryType.FILE) ? Math.max(0, attributes.getSize()) : 0;
		return new FileEntry(path, type, size, modified(attributes), FileKey.of(remote));
	}

	private static Instant modified(FileAttributes attributes) {
		return Instant.ofEpochSecond(Math.max(0, attributes.getMtime()));
	}

	@FunctionalInterface
	private interface IoCall<T> {

		@Nullable T call() throws IOException;

	}

	/**
	 * A file open for writing on a leased connection, and the channel that streams into
	 * it.
	 */
	private abstract static class OpenWrite {

		final SftpConnectionPool.Lease lease;

		final RemoteFile file;

		final RemoteChannels.Writer channel;

		private volatile boolean closed;

		OpenWrite(SftpConnectionPool.Lease lease, RemoteFile file, long offset) {
			this.lease = lease;
			this.file = file;
			this.channel = RemoteChannels.writer(file, offset);
		}

		/**
		 * Sends what is left, waits until the server acknowledged every write, and closes
		 * the file.
		 * @return the file's attributes once complete
		 */
		FileAttributes finish() throws IOException {
			this.channel.finish();
			FileAttributes written = this.file.fetchAttributes();
			closeFile();
			return written;
		}

		void closeFile() throws IOException {
			if (!this.closed) {
				this.closed = true;
				this.file.close();
			}
		}

		boolean isFileClosed() {
			return this.closed;
		}

		@Nullable Void release() {
			this.lease.close();
			return null;
		}

		/**
		 * Undoes the write after a failure or cancellation, as far as possible, and hands
		 * the connection back.
		 */
		@Nullable Void undo(@Nullable Throwable error) {
			try {
				if (error != null) {
					this.lease.failed(error);
				}
				this.channel.close();
				if (this.lease.connection().isUsable()) {
					this.lease.run(lease -> {
						undoOnServer(lease.connection().engine());
						return null;
					});
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("Undoing a failed write failed", ex);
			}
			finally {
				afterUndo();
				this.lease.close();
			}
			return null;
		}

		/** Undoes the write through a working connection. */
		abstract void undoOnServer(SftpEngine engine) throws IOException;

		/** Runs after {@link #undoOnServer}, whether or not the connection worked. */
		void afterUndo() {
		}

	}

	/**
	 * A write in progress to a temporary file beside its target: renamed over the target
	 * on commit, deleted otherwise (through the next working connection if this one
	 * broke).
	 */
	private static final class Upload extends OpenWrite {

		final RemotePaths.Entry target;

		final String temp;

		final WriteMode mode;

		volatile boolean committed;

		private volatile boolean deleted;

		private Upload(SftpConnectionPool.Lease lease, RemotePaths.Entry target, String temp, WriteMode mode,
				RemoteFile file) {
			super(lease, file, 0);
			this.target = target;
			this.temp = temp;
			this.mode = mode;
		}

		/**
		 * Checks the target and creates the temporary file beside it; the lease is closed
		 * if this fails.
		 */
		static Upload start(SftpConnectionPool.Lease lease, StoragePath path, WriteMode mode) throws IOException {
			return lease.open(leased -> {
				SftpConnection connection = leased.connection();
				SftpEngine engine = connection.engine();
				RemotePaths.Entry target = connection.paths().entry(engine, path, true);
				if (target.isDirectory()) {
					throw new ConflictException("Is a folder: " + path);
				}
				if (mode == WriteMode.CREATE_NEW && target.exists()) {
					throw new AlreadyExistsException("Already exists: " + path);
				}
				String temp = RemotePaths.child(target.folder(), TEMP_PREFIX + UUID.randomUUID());
				RemoteFile file = engine.open(temp, EnumSet.of(OpenMode.WRITE, OpenMode.CREAT, OpenMode.EXCL));
				return new Upload(leased, target, temp, mode, file);
			});
		}

		@Override
		void undoOnServer(SftpEngine engine) throws IOException {
			if (this.committed) {
				return;
			}
			try {
				closeFile();
			}
			finally {
				try {
					engine.remove(this.temp);
					this.deleted = true;
				}
				catch (SFTPException ex) {
					this.deleted = ex.getStatusCode() == Response.StatusCode.NO_SUCH_FILE;
					if (!this.deleted) {
						throw ex;
					}
				}
			}
		}

		@Override
		void afterUndo() {
			if (!this.committed && !this.deleted) {
				this.lease.pool().deleteLater(this.temp);
			}
		}

	}

	/**
	 * An append in progress to the file itself (appends are not atomic): on failure it is
	 * cut back to its original length, or deleted if the append created it.
	 */
	private static final class Appender extends OpenWrite {

		final long originalSize;

		final boolean created;

		final String remote;

		private Appender(SftpConnectionPool.Lease lease, String remote, RemoteFile file, long originalSize,
				boolean created) {
			super(lease, file, originalSize);
			this.remote = remote;
			this.originalSize = originalSize;
			this.created = created;
		}

		static Appender start(SftpConnectionPool.Lease lease, StoragePath path) throws IOException {
			return lease.open(leased -> {
				SftpConnection connection = leased.connection();
				SftpEngine engine = connection.engine();
				RemotePaths.Entry target = connection.paths().entry(engine, path, true);
				String remote = target.remote();
				FileAttributes attributes = target.attributes();
				if (attributes != null && attributes.getType() == FileMode.Type.SYMLINK) {
					remote = connection.paths().real(engine, path);
					attributes = engine.stat(remote);
				}
				if (attributes != null && attributes.getType() == FileMode.Type.DIRECTORY) {
					throw new ConflictException("Is a folder: " + path);
				}
				RemoteFile file = engine.open(remote, EnumSet.of(OpenMode.WRITE, OpenMode.APPEND, OpenMode.CREAT));
				try {
					return new Appender(leased, remote, file, file.length(), attributes == null);
				}
				catch (IOException | RuntimeException ex) {
					file.close();
					throw ex;
				}
			});
		}

		@Nullable FileEntry commit(StoragePath path) throws IOException {
			return this.lease.run(lease -> entry(path, finish(), this.remote));
		}

		@Override
		void undoOnServer(SftpEngine engine) throws IOException {
			if (isFileClosed()) {
				return;
			}
			this.file.setLength(this.originalSize);
			closeFile();
			if (this.created && this.originalSize == 0) {
				engine.remove(this.remote);
			}
		}

	}

}
