package dev.wharf.ftp.filesystem;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.security.AuthorizedStorage;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.ftp.session.FtpUser;

/**
 * Each logged-in FTP user's file system on Wharf's mounts: each user gets a {@link MountFileSystemView} of
 * the FTP mounts they may read, each through {@link AuthorizedStorage#of}, so rights are enforced by the storage
 * layer. Thread-safe.
 */
public final class StorageFileSystemFactory {

	private final List<Mount> mounts;

	/**
	 * Creates the factory.
	 * @param mounts the mounts FTP serves, in the configured order
	 */
	public StorageFileSystemFactory(List<Mount> mounts) {
		if (mounts.isEmpty()) {
			throw new IllegalArgumentException("FTP needs at least one mount");
		}
		this.mounts = List.copyOf(mounts);
	}

	/**
	 * The view for a user.
	 * @param ftpUser the user
	 * @return the view; it may hold no mount at all if the user may read none (callers refuse such a login)
	 */
	public MountFileSystemView createFileSystemView(FtpUser ftpUser) {
		List<SessionMount> visible = new ArrayList<>();
		for (Mount mount : this.mounts) {
			if (ftpUser.user().access(mount.name()).canRead()) {
				visible.add(new SessionMount(mount.name(), AuthorizedStorage.of(mount, ftpUser.user()), ftpUser.credentials()));
			}
		}
		boolean single = this.mounts.size() == 1;
		return new MountFileSystemView(visible, single && visible.size() == 1);
	}

	/**
	 * Whether any mount FTP serves has an ability.
	 * @param capability the ability
	 * @return whether one mount at least has it
	 */
	public boolean anyMountCan(Capability capability) {
		return this.mounts.stream().anyMatch(mount -> mount.storage().capabilities().contains(capability));
	}

	/**
	 * Whether a user may read at least one FTP mount.
	 * @param user the user
	 * @return whether FTP has anything to show them
	 */
	public boolean canUse(User user) {
		return this.mounts.stream().anyMatch(mount -> user.access(mount.name()).canRead());
	}

}
