package dev.wharf.ftp.filesystem;

import java.util.List;

import dev.wharf.core.mounts.ModuleMounts;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.ftp.session.FtpUser;

/**
 * Each logged-in FTP user's file system: a {@link MountFileSystemView} over core's
 * {@link ModuleMounts} of the FTP mounts, a lone mount at the root, so rights and
 * credentials are attached by the storage layer. Thread-safe.
 */
public final class StorageFileSystemFactory {

	private final ModuleMounts mounts;

	/**
	 * Creates the factory.
	 * @param mounts the mounts FTP serves, in the configured order
	 */
	public StorageFileSystemFactory(List<Mount> mounts) {
		if (mounts.isEmpty()) {
			throw new IllegalArgumentException("FTP needs at least one mount");
		}
		this.mounts = new ModuleMounts(mounts, ModuleMounts.Layout.LONE_MOUNT_AT_ROOT);
	}

	/**
	 * The view for a user.
	 * @param ftpUser the user
	 * @return the view; it may hold no mount at all if the user may read none (callers
	 * refuse such a login)
	 */
	public MountFileSystemView createFileSystemView(FtpUser ftpUser) {
		return new MountFileSystemView(this.mounts.forUser(ftpUser.user(), ftpUser.credentials()));
	}

	/**
	 * Whether any mount FTP serves has an ability.
	 * @param capability the ability
	 * @return whether one mount at least has it
	 */
	public boolean anyMountCan(Capability capability) {
		return this.mounts.anyMountCan(capability);
	}

	/**
	 * Whether a user may read at least one FTP mount.
	 * @param user the user
	 * @return whether FTP has anything to show them
	 */
	public boolean canUse(User user) {
		return this.mounts.canUse(user);
	}

}
