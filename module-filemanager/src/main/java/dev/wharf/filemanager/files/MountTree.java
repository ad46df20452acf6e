package dev.wharf.filemanager.files;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.wharf.core.mounts.ModuleMounts;
import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.mounts.UserMount;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.User;
import dev.wharf.core.share.Share;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.http.ApiException;
import org.springframework.http.HttpStatus;

/**
 * The file manager's tree: every exposed mount the user may read is a folder at the top
 * level ({@code /data/…}, {@code /scratch/…}), as core's {@link ModuleMounts} lays them
 * out. Paths are parsed here, once, and each mount is reached only through
 * {@link UserMount#storage()} (the user's rights, checked on every operation, and
 * credentials), and through {@link MountFolderErrors}, so errors name paths with the
 * mount's folder, as the user gave them. A mount the user has no right on does not exist
 * for them (404, not 403, so names do not leak). A visitor of a share link sees the
 * shared folder as the whole tree. Thread-safe.
 */
public final class MountTree {

	private final ModuleMounts mounts;

	/**
	 * Creates the tree.
	 * @param mounts the exposed mounts
	 */
	public MountTree(List<Mount> mounts) {
		this.mounts = new ModuleMounts(mounts, ModuleMounts.Layout.FOLDERS);
	}

	/**
	 * The tree of the configured mounts.
	 * @param registry every mount
	 * @param names the mounts to expose ({@code wharf.filemanager.mounts}); empty for all
	 * @return the tree
	 * @throws dev.wharf.core.config.InvalidConfigurationException if a name is not a
	 * mount
	 */
	public static MountTree of(MountRegistry registry, List<String> names) {
		if (names.isEmpty()) {
			return new MountTree(new ArrayList<>(registry.all()));
		}
		List<Mount> mounts = new ArrayList<>();
		for (String name : names) {
			mounts.add(registry.require("wharf.filemanager.mounts", name));
		}
		mounts.sort((a, b) -> a.name().compareTo(b.name()));
		return new MountTree(mounts);
	}

	/** Every exposed mount, by name. */
	public Collection<Mount> mounts() {
		return this.mounts.mounts();
	}

	/**
	 * Whether some exposed mount logs in as the user, so sessions must keep the login.
	 */
	public boolean needsCredentials() {
		return this.mounts.needsCredentials();
	}

	/**
	 * The exposed mounts a user may read, by name.
	 * @param user the user
	 * @return the mounts
	 */
	public List<Mount> visible(User user) {
		return this.mounts.visible(user);
	}

	/**
	 * Resolves a path of the API.
	 * @param caller who asks
	 * @param path the decoded path, such as {@code /data/photos/}
	 * @return the location
	 * @throws dev.wharf.core.storage.InvalidStoragePathException if the path is malformed
	 * (400)
	 * @throws ApiException 404 if the first name is not a mount the caller may see
	 */
	public Location locate(Caller caller, String path) {
		StoragePath virtual = StoragePath.parse(path);
		Share share = caller.share();
		if (share != null) {
			return locateInShare(caller, share, virtual);
		}
		MountLocation location = this.mounts.forUser(caller.user(), caller.credentials()).locate(virtual);
		if (location instanceof MountLocation.InMount in) {
			UserMount mount = in.mount();
			return new Location(virtual, mount.mount(), new MountFolderErrors(mount.storage(), mount.folder()),
					in.path(), mount.access());
		}
		if (location instanceof MountLocation.Top) {
			return new Location(virtual, null, null, virtual, MountAccess.READ_ONLY);
		}
		throw new ApiException(HttpStatus.NOT_FOUND, "Not found: " + virtual);
	}

	/**
	 * Resolves a path of a share link's tree: below the shared folder (or the shared file
	 * itself), in the share's mount, as the share's own user. The path was parsed as
	 * every path is ({@code ..}, encoded separators and the like refused), so it cannot
	 * climb above the share's root.
	 */
	private Location locateInShare(Caller caller, Share share, StoragePath virtual) {
		StoragePath inMount = StoragePath.root().resolve(share.mount()).resolve(share.path()).resolve(virtual);
		if (this.mounts.forUser(caller.user(), null).locate(inMount) instanceof MountLocation.InMount in) {
			UserMount mount = in.mount();
			return new Location(virtual, mount.mount(), new MountFolderErrors(mount.storage(), share.path(), ""),
					in.path(), mount.access(), share.path());
		}
		throw new ApiException(HttpStatus.NOT_FOUND, "Not found: " + virtual);
	}

	/**
	 * Resolves a path that must lie inside a mount.
	 * @param caller who asks
	 * @param path the decoded path
	 * @return the location
	 * @throws ApiException 403 for the top level, 404 for an unknown mount
	 */
	public Location locateInMount(Caller caller, String path) {
		Location location = locate(caller, path);
		location.requireStorage();
		return location;
	}

}
