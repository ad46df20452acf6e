package dev.wharf.core.mounts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.mount.Mount;
import org.jspecify.annotations.Nullable;

/**
 * The mounts one protocol module serves (its configured mount list, in order), laid out
 * as one tree: a folder per mount at the top ({@code /data/...}), or, for modules that
 * ask for it, a lone mount as the root itself. Users see it through {@link #forUser}.
 * Immutable and thread-safe.
 */
public final class ModuleMounts {

	private final Map<String, Mount> mounts;

	private final Layout layout;

	private final boolean needsCredentials;

	/**
	 * Creates the tree.
	 * @param mounts the module's mounts, in the order they are listed
	 * @param layout how they are laid out
	 */
	public ModuleMounts(List<Mount> mounts, Layout layout) {
		Map<String, Mount> byName = new LinkedHashMap<>();
		boolean credentials = false;
		for (Mount mount : mounts) {
			byName.put(mount.name(), mount);
			credentials |= mount.storage().needsUserCredentials();
		}
		this.mounts = byName;
		this.layout = layout;
		this.needsCredentials = credentials;
	}

	/** Every mount of the module, in order. */
	public List<Mount> mounts() {
		return List.copyOf(this.mounts.values());
	}

	/**
	 * A mount of the module by name.
	 * @param name the name
	 * @return the mount, or {@code null} if the module serves none of that name
	 */
	public @Nullable Mount get(String name) {
		return this.mounts.get(name);
	}

	/**
	 * Whether some mount logs in to its backend as the user, so sessions must keep the
	 * login.
	 */
	public boolean needsCredentials() {
		return this.needsCredentials;
	}

	/**
	 * Whether any mount has an ability.
	 * @param capability the ability
	 * @return whether one mount at least has it
	 */
	public boolean anyMountCan(Capability capability) {
		return this.mounts.values().stream().anyMatch(mount -> mount.storage().capabilities().contains(capability));
	}

	/**
	 * The mounts a user may read, in order.
	 * @param user the user
	 * @return the mounts
	 */
	public List<Mount> visible(User user) {
		List<Mount> visible = new ArrayList<>(this.mounts.size());
		for (Mount mount : this.mounts.values()) {
			if (user.access(mount.name()).canRead()) {
				visible.add(mount);
			}
		}
		return visible;
	}

	/**
	 * Whether a user may read at least one mount.
	 * @param user the user
	 * @return whether the module has anything to show them
	 */
	public boolean canUse(User user) {
		return this.mounts.values().stream().anyMatch(mount -> user.access(mount.name()).canRead());
	}

	/**
	 * A user's view of the tree.
	 * @param user the user
	 * @param credentials the user's login, for mounts that log in to their backend as the
	 * user; {@code null} if not kept
	 * @return the view
	 */
	public UserMounts forUser(User user, @Nullable Credentials credentials) {
		return new UserMounts(this, user, credentials);
	}

	/** Whether a lone mount is the root. */
	boolean loneMountAtRoot() {
		return this.layout == Layout.LONE_MOUNT_AT_ROOT && this.mounts.size() == 1;
	}

	/** How a module lays its mounts out. */
	public enum Layout {

		/**
		 * Every mount is a folder at the top, however many there are (the file manager).
		 */
		FOLDERS,

		/**
		 * A module serving one mount shows it as the root; with several, each is a folder
		 * at the top (FTP).
		 */
		LONE_MOUNT_AT_ROOT

	}

}
