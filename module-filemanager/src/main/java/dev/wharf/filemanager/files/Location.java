package dev.wharf.filemanager.files;

import java.util.Objects;

import dev.wharf.core.security.MountAccess;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.http.ApiException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Where a path of the file API leads: the top level (which holds the mounts), or a path
 * inside one mount, with the user's view of that mount's storage (rights enforced on
 * every call). Through a share link, the tree is the shared folder (or file): its virtual
 * paths start at the share's root.
 *
 * @param virtualPath the path as the API shows it, such as {@code /data/photos/a.jpg}
 * @param mount the mount, or {@code null} at the top level
 * @param storage the user's view of the mount, or {@code null} at the top level
 * @param path the path inside the mount
 * @param access the user's rights on the mount ({@link MountAccess#READ_ONLY} at the top
 * level)
 * @param shareRoot the shared folder or file inside the mount for a visitor of a share
 * link, else {@code null}
 */
public record Location(StoragePath virtualPath, @Nullable Mount mount, @Nullable Storage storage, StoragePath path,
		MountAccess access, @Nullable StoragePath shareRoot) {

	public Location {
		Objects.requireNonNull(virtualPath, "virtualPath");
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(access, "access");
	}

	/**
	 * A location of a user's tree (no share).
	 * @param virtualPath the path as the API shows it
	 * @param mount the mount, or {@code null} at the top level
	 * @param storage the user's view of the mount, or {@code null} at the top level
	 * @param path the path inside the mount
	 * @param access the user's rights on the mount
	 */
	public Location(StoragePath virtualPath, @Nullable Mount mount, @Nullable Storage storage, StoragePath path,
			MountAccess access) {
		this(virtualPath, mount, storage, path, access, null);
	}

	/** Whether this is reached through a share link. */
	public boolean isShared() {
		return this.shareRoot != null;
	}

	/** Whether this is the top level, which lists the mounts. */
	public boolean isTop() {
		return this.mount == null;
	}

	/** Whether this is the root folder of a mount, or the root of a share. */
	public boolean isMountRoot() {
		StoragePath shareRoot = this.shareRoot;
		return this.mount != null && ((shareRoot != null) ? this.path.equals(shareRoot) : this.path.isRoot());
	}

	/**
	 * The mount, for a location known to be inside one.
	 * @return the mount
	 * @throws ApiException 403 at the top level
	 */
	public Mount requireMount() {
		Mount mount = this.mount;
		if (mount == null) {
			throw new ApiException(HttpStatus.FORBIDDEN, "The top level holds the mounts and cannot be changed");
		}
		return mount;
	}

	/**
	 * The storage, for a location known to be inside a mount.
	 * @return the user's view of the mount
	 * @throws ApiException 403 at the top level
	 */
	public Storage requireStorage() {
		Storage storage = this.storage;
		if (storage == null) {
			throw new ApiException(HttpStatus.FORBIDDEN, "The top level holds the mounts and cannot be changed");
		}
		return storage;
	}

	/**
	 * Refuses the top level and mount roots, for operations that remove, move or replace
	 * what is at the path.
	 * @param operation what is being done, for the message
	 * @return this location
	 * @throws ApiException 403 if the location is the top level or a mount's root
	 */
	public Location requireEntry(String operation) {
		if (this.shareRoot != null && this.path.equals(this.shareRoot)) {
			throw new ApiException(HttpStatus.FORBIDDEN,
					"Cannot " + operation + " what the link shares, only what is inside it");
		}
		if (this.mount == null || this.path.isRoot()) {
			throw new ApiException(HttpStatus.FORBIDDEN, "Cannot " + operation + " " + this.virtualPath
					+ ": mounts are configured, not changed through the file manager");
		}
		return this;
	}

	/** The mount and path, for the audit log, such as {@code data:/photos/a.jpg}. */
	public String auditTarget() {
		Mount mount = this.mount;
		return (mount != null) ? mount.name() + ":" + this.path : "/";
	}

	/**
	 * The API path of an entry inside this location's mount.
	 * @param inner a path inside the same mount
	 * @return the path as the API shows it
	 */
	public StoragePath virtual(StoragePath inner) {
		StoragePath shareRoot = this.shareRoot;
		if (shareRoot != null) {
			return inner.relativeTo(shareRoot);
		}
		Mount mount = this.mount;
		return (mount != null) ? StoragePath.root().resolve(mount.name()).resolve(inner) : inner;
	}

	@Override
	public String toString() {
		return this.virtualPath.toString();
	}

}
