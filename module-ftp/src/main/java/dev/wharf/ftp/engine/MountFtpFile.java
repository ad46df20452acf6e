package dev.wharf.ftp.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StoragePath;
import org.apache.ftpserver.ftplet.FtpFile;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Mono;

/**
 * A path of an FTP session's file system as Apache FtpServer's {@link FtpFile}, for the
 * FtpServer commands Wharf keeps ({@code PWD}, {@code STAT}) and for Ftplets. Wharf's own
 * commands use the storage directly and report errors precisely; here every answer is a
 * boolean, as the interface wants.
 *
 * <p>
 * Methods block on the storage (with a time limit) and must only run on FtpServer's
 * command threads, never on an event loop. The entry is looked up once and remembered;
 * {@link #mkdir}, {@link #delete} and {@link #move} forget it. Not thread-safe.
 */
final class MountFtpFile implements FtpFile {

	/** The longest a blocking storage call may take here. */
	static final Duration TIME_LIMIT = Duration.ofMinutes(2);

	private final MountLocation location;

	private @Nullable Optional<FileEntry> entry;

	/**
	 * Creates the file object; nothing is looked up yet.
	 * @param location where the path leads
	 */
	public MountFtpFile(MountLocation location) {
		this.location = location;
	}

	/** Where the path leads. */
	public MountLocation location() {
		return this.location;
	}

	private Optional<FileEntry> entry() {
		Optional<FileEntry> known = this.entry;
		if (known == null) {
			known = lookUp();
			this.entry = known;
		}
		return known;
	}

	private Optional<FileEntry> lookUp() {
		if (this.location instanceof MountLocation.Top root) {
			return Optional.of(new FileEntry(root.virtualPath(), EntryType.DIRECTORY, 0, Instant.EPOCH));
		}
		if (this.location instanceof MountLocation.InMount in) {
			try {
				return Optional.ofNullable(in.mount().storage().stat(in.path()).block(TIME_LIMIT));
			}
			catch (StorageException ex) {
				return Optional.empty();
			}
		}
		return Optional.empty();
	}

	@Override
	public String getAbsolutePath() {
		return this.location.virtualPath().toString();
	}

	@Override
	public String getName() {
		StoragePath path = this.location.virtualPath();
		return path.isRoot() ? "/" : path.name();
	}

	@Override
	public boolean isHidden() {
		return false;
	}

	@Override
	public boolean isDirectory() {
		return entry().map(FileEntry::isDirectory).orElse(false);
	}

	@Override
	public boolean isFile() {
		return entry().map(FileEntry::isFile).orElse(false);
	}

	@Override
	public boolean doesExist() {
		return entry().isPresent();
	}

	@Override
	public boolean isReadable() {
		return doesExist();
	}

	@Override
	public boolean isWritable() {
		return (this.location instanceof MountLocation.InMount in) && in.mount().access().canWrite();
	}

	@Override
	public boolean isRemovable() {
		return isWritable() && !this.location.virtualPath().isRoot()
				&& !(this.location instanceof MountLocation.InMount in && in.path().isRoot());
	}

	@Override
	public String getOwnerName() {
		return "ftp";
	}

	@Override
	public String getGroupName() {
		return "ftp";
	}

	@Override
	public int getLinkCount() {
		return isDirectory() ? 2 : 1;
	}

	@Override
	public long getLastModified() {
		return entry().map(found -> found.lastModified().toEpochMilli()).orElse(0L);
	}

	/** Modification times cannot be set through the storage layer. */
	@Override
	public boolean setLastModified(long time) {
		return false;
	}

	@Override
	public long getSize() {
		return entry().map(FileEntry::size).orElse(0L);
	}

	/** Never the host file: nothing host-specific leaves the storage layer. */
	@Override
	public @Nullable Object getPhysicalFile() {
		return null;
	}

	@Override
	public boolean mkdir() {
		return change(in -> in.mount().storage().createDirectory(in.path()).then());
	}

	@Override
	public boolean delete() {
		return change(in -> in.mount().storage().delete(in.path(), false));
	}

	@Override
	public boolean move(FtpFile destination) {
		if (!(destination instanceof MountFtpFile target) || !(target.location instanceof MountLocation.InMount to)) {
			return false;
		}
		return change(from -> (!from.mount().name().equals(to.mount().name()))
				? Mono.error(new IllegalArgumentException("across mounts"))
				: from.mount().storage().move(from.path(), to.path(), true).then());
	}

	private boolean change(Function<MountLocation.InMount, Mono<Void>> operation) {
		if (!(this.location instanceof MountLocation.InMount in)) {
			return false;
		}
		try {
			operation.apply(in).block(TIME_LIMIT);
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
		finally {
			this.entry = null;
		}
	}

	@Override
	public List<MountFtpFile> listFiles() {
		if (this.location instanceof MountLocation.Top root) {
			return root.mounts().stream().map(mount -> new MountFtpFile(root.folderOf(mount))).toList();
		}
		if (!(this.location instanceof MountLocation.InMount in) || !isDirectory()) {
			return List.of();
		}
		try {
			List<FileEntry> children = in.mount().storage().list(in.path()).collectList().block(TIME_LIMIT);
			return (children == null) ? List.of() : children.stream().map(child -> {
				MountFtpFile file = new MountFtpFile(
						new MountLocation.InMount(in.virtualPath().resolve(child.name()), in.mount(), child.path()));
				file.entry = Optional.of(child);
				return file;
			}).toList();
		}
		catch (StorageException ex) {
			return List.of();
		}
	}

	@Override
	public OutputStream createOutputStream(long offset) throws IOException {
		throw new IOException("Uploads go through Wharf's transfer commands, which write atomically");
	}

	@Override
	public InputStream createInputStream(long offset) throws IOException {
		if (!(this.location instanceof MountLocation.InMount in)) {
			throw new IOException("Not a file: " + getAbsolutePath());
		}
		return DataBufferUtils.subscriberInputStream(in.mount().storage().read(in.path(), ByteRange.from(offset)), 4);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof MountFtpFile file && file.location.virtualPath().equals(this.location.virtualPath());
	}

	@Override
	public int hashCode() {
		return this.location.virtualPath().hashCode();
	}

	@Override
	public String toString() {
		return getAbsolutePath();
	}

}
