package dev.wharf.core.mounts;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import org.jspecify.annotations.Nullable;

/**
 * One user's view of a module's {@link ModuleMounts}: the mounts they may read (any other
 * does not exist for them, so names do not leak), and where a path of the tree leads.
 * Paths are {@link StoragePath}s, parsed once by the protocol, so a path cannot climb out
 * of a mount or the tree. The layout depends on the module's configuration, never on the
 * user's rights: with one configured mount at the root, a user who may not read it sees
 * an empty top. Each mount's storage is reached only through {@link UserMount#storage()}.
 * Immutable and thread-safe; cheap to make, since mounts are looked up only when asked
 * for.
 */
public final class UserMounts {

	private final ModuleMounts module;

	private final User user;

	private final @Nullable Credentials credentials;

	UserMounts(ModuleMounts module, User user, @Nullable Credentials credentials) {
		this.module = module;
		this.user = user;
		this.credentials = credentials;
	}

	/** The user. */
	public User user() {
		return this.user;
	}

	/** The mounts the user may read, in the module's order. */
	public List<UserMount> mounts() {
		List<Mount> visible = this.module.visible(this.user);
		List<UserMount> mounts = new ArrayList<>(visible.size());
		for (Mount mount : visible) {
			mounts.add(mount(mount));
		}
		return mounts;
	}

	/**
	 * Finds where a path of the tree leads.
	 * @param virtualPath the path
	 * @return the top, a path inside a mount the user may read, or nowhere
	 */
	public MountLocation locate(StoragePath virtualPath) {
		if (this.module.loneMountAtRoot()) {
			Mount lone = this.module.mounts().get(0);
			if (this.user.access(lone.name()).canRead()) {
				return new MountLocation.InMount(virtualPath, mount(lone), virtualPath);
			}
		}
		if (virtualPath.isRoot()) {
			return new MountLocation.Top(virtualPath, mounts());
		}
		String name = virtualPath.segments().get(0);
		Mount mount = this.module.get(name);
		if (mount == null || !this.user.access(name).canRead()) {
			return new MountLocation.Unknown(virtualPath);
		}
		UserMount found = mount(mount);
		return new MountLocation.InMount(virtualPath, found, virtualPath.relativeTo(found.folder()));
	}

	private UserMount mount(Mount mount) {
		StoragePath folder = this.module.loneMountAtRoot() ? StoragePath.root()
				: StoragePath.root().resolve(mount.name());
		return new UserMount(mount, this.user, this.credentials, folder);
	}

}
