package dev.wharf.core.mounts;

import dev.wharf.core.security.AuthorizedStorage;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import org.jspecify.annotations.Nullable;

/**
 * One mount as one user reaches it: through {@link AuthorizedStorage} (the user's rights,
 * checked on every call) and, for a mount that logs in to its backend as the user, with
 * the user's credentials attached to every call ({@link CredentialedStorage}). Immutable
 * and thread-safe.
 */
public final class UserMount {

	private final Mount mount;

	private final MountAccess access;

	private final Storage storage;

	private final StoragePath folder;

	/**
	 * The view of a mount the user may read.
	 * @param mount the mount
	 * @param user the user
	 * @param credentials the user's login, or {@code null} if not kept; used only where
	 * the mount needs it
	 * @param folder where the mount is in its module's tree
	 * @throws dev.wharf.core.storage.AccessDeniedException if the user may not read the
	 * mount
	 */
	UserMount(Mount mount, User user, @Nullable Credentials credentials, StoragePath folder) {
		AuthorizedStorage authorized = AuthorizedStorage.of(mount, user);
		this.mount = mount;
		this.access = authorized.access();
		this.storage = (credentials != null && authorized.needsUserCredentials())
				? new CredentialedStorage(authorized, credentials) : authorized;
		this.folder = folder;
	}

	/** The mount's name. */
	public String name() {
		return this.mount.name();
	}

	/**
	 * The mount itself, for its name and configuration; its storage must not be used
	 * directly.
	 */
	public Mount mount() {
		return this.mount;
	}

	/** The user's rights on the mount. */
	public MountAccess access() {
		return this.access;
	}

	/** The mount's storage as the user may use it. */
	public Storage storage() {
		return this.storage;
	}

	/**
	 * Where the mount is in its module's tree: {@code /name}, or {@code /} for a lone
	 * mount at the root.
	 */
	public StoragePath folder() {
		return this.folder;
	}

	@Override
	public String toString() {
		return "UserMount[" + this.mount.name() + "]";
	}

}
