package dev.wharf.core.mounts;

import java.util.List;

import dev.wharf.core.storage.StoragePath;

/**
 * Where a path of a module's tree leads for one user: the top that holds the mounts, a
 * path inside one mount, or nowhere. Immutable.
 */
public sealed interface MountLocation {

	/**
	 * The path in the tree, as the client sees it.
	 * @return the virtual path
	 */
	StoragePath virtualPath();

	/**
	 * The top of a tree of several mounts (or of a tree whose lone mount the user may not
	 * read): a read-only folder of one folder per mount the user may read.
	 *
	 * @param virtualPath always the root
	 * @param mounts the mounts the user may read, in order
	 */
	record Top(StoragePath virtualPath, List<UserMount> mounts) implements MountLocation {

		public Top {
			mounts = List.copyOf(mounts);
		}

		/**
		 * Where one mount's folder leads.
		 * @param mount one of the mounts
		 * @return the mount's root
		 */
		public InMount folderOf(UserMount mount) {
			return new InMount(mount.folder(), mount, StoragePath.root());
		}

	}

	/**
	 * A path inside a mount.
	 *
	 * @param virtualPath the path in the tree
	 * @param mount the mount
	 * @param path the path inside the mount
	 */
	record InMount(StoragePath virtualPath, UserMount mount, StoragePath path) implements MountLocation {
	}

	/**
	 * A path below the top whose first name is no mount the user may read.
	 *
	 * @param virtualPath the path in the tree
	 */
	record Unknown(StoragePath virtualPath) implements MountLocation {
	}

}
