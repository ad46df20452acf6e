package dev.wharf.ftp.filesystem;

import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.mounts.UserMount;
import dev.wharf.core.mounts.UserMounts;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;

/**
 * One FTP session's file system: the user's view of the FTP mounts ({@link UserMounts}),
 * and the working folder. With one mount configured for FTP, its root is {@code /}; with
 * several, {@code /} is a read-only folder holding one folder per mount the user may read
 * (named as the mount), so the layout depends on the configuration, never on a user's
 * rights.
 *
 * <p>
 * Paths from clients are parsed once with {@link StoragePath}: a bad path ({@code ..} or
 * {@code .} names, backslashes, control characters, empty names, ...) is refused, never
 * repaired or clamped at the root. The only exceptions are {@code CWD ..}, which means
 * {@code CDUP}, and a lone {@code .}, the working folder.
 *
 * <p>
 * A session's commands run one at a time, but the working folder is read from transfer
 * threads too, so it is volatile.
 */
public final class MountFileSystemView {

	private final UserMounts mounts;

	private volatile StoragePath workingDirectory = StoragePath.root();

	/**
	 * Creates the view.
	 * @param mounts the user's view of the FTP mounts
	 */
	public MountFileSystemView(UserMounts mounts) {
		this.mounts = mounts;
	}

	/** The mounts the user may read. */
	public List<UserMount> mounts() {
		return this.mounts.mounts();
	}

	/** The working folder, as a virtual path. */
	public StoragePath workingDirectoryPath() {
		return this.workingDirectory;
	}

	/**
	 * Sets the working folder; the caller checked that it is a folder.
	 * @param directory the new working folder
	 */
	public void changeWorkingDirectory(StoragePath directory) {
		this.workingDirectory = directory;
	}

	/**
	 * Parses a path argument against the working folder.
	 * @param argument the argument as the client sent it; {@code null}, empty or
	 * {@code .} for the working folder
	 * @return the virtual path
	 * @throws InvalidStoragePathException if the path is not acceptable
	 */
	public StoragePath resolve(@Nullable String argument) {
		// "." alone is how rclone lists the folder it is in (MLSD .); a "." inside a path
		// is still refused.
		if (argument == null || argument.isEmpty() || ".".equals(argument)) {
			return this.workingDirectory;
		}
		if (argument.startsWith("/")) {
			return StoragePath.parse(argument);
		}
		return StoragePath
			.parse(this.workingDirectory.isRoot() ? "/" + argument : this.workingDirectory + "/" + argument);
	}

	/**
	 * Finds where a virtual path leads.
	 * @param virtualPath the path
	 * @return the location
	 */
	public MountLocation locate(StoragePath virtualPath) {
		return this.mounts.locate(virtualPath);
	}

	/**
	 * Resolves and locates a path argument.
	 * @param argument the argument as the client sent it
	 * @return the location
	 * @throws InvalidStoragePathException if the path is not acceptable
	 */
	public MountLocation locate(@Nullable String argument) {
		return locate(resolve(argument));
	}

	/** The working folder's parent, or {@code null} at the root. */
	public @Nullable StoragePath parentOfWorkingDirectory() {
		return this.workingDirectory.parent();
	}

}
