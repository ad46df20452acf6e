package dev.wharf.ftp.filesystem;

import java.util.List;

import dev.wharf.core.storage.StoragePath;

/**
 * Where an FTP path leads: the virtual root that lists the mounts, a path inside one mount, or nowhere.
 */
public sealed interface Location {

	/**
	 * The path as the client sees it.
	 * @return the virtual path
	 */
	StoragePath virtualPath();

	/**
	 * The virtual root {@code /} when FTP serves several mounts: a read-only folder of one folder per mount.
	 *
	 * @param virtualPath always the root
	 * @param mounts the mounts the user may read, one folder each
	 */
	record VirtualRoot(StoragePath virtualPath, List<SessionMount> mounts) implements Location {

		public VirtualRoot {
			mounts = List.copyOf(mounts);
		}

		/**
		 * Where one mount's folder leads.
		 * @param mount one of the mounts
		 * @return the mount's root
		 */
		public InMount folderOf(SessionMount mount) {
			return new InMount(StoragePath.root().resolve(mount.name()), mount, StoragePath.root());
		}

	}

	/**
	 * A path inside a mount.
	 *
	 * @param virtualPath the path as the client sees it
	 * @param mount the mount
	 * @param path the path inside the mount
	 */
	record InMount(StoragePath virtualPath, SessionMount mount, StoragePath path) implements Location {
	}

	/**
	 * A path below the virtual root whose first name is no mount the user may see.
	 *
	 * @param virtualPath the path as the client sees it
	 */
	record NoMount(StoragePath virtualPath) implements Location {
	}

}
