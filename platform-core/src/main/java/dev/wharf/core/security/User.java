package dev.wharf.core.security;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An authenticated user: name, roles and rights per mount. Never holds a password or a
 * hash.
 *
 * @param name the user's name
 * @param roles the user's roles
 * @param mounts the user's rights by mount name; mounts not named are
 * {@link MountAccess#NONE}
 */
public record User(String name, Set<Role> roles, Map<String, MountAccess> mounts) {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

	public User {
		Objects.requireNonNull(name, "name");
		roles = Set.copyOf(roles);
		mounts = Map.copyOf(mounts);
	}

	/**
	 * Whether a name may be a user's: 1 to 64 letters, digits, {@code . _ @ -}, starting
	 * with a letter or digit. Names from a directory or an identity provider are held to
	 * the same rule, so none of them can carry characters that mean something in a DN, a
	 * search filter, a log line or an FTP reply.
	 * @param name the name
	 * @return whether it is allowed
	 */
	public static boolean isValidName(String name) {
		return NAME.matcher(name).matches();
	}

	/**
	 * Whether the user has a role; an admin has every role.
	 * @param role the role
	 * @return whether the user holds it
	 */
	public boolean hasRole(Role role) {
		return this.roles.contains(role) || this.roles.contains(Role.ADMIN);
	}

	/** Whether the user is an admin. */
	public boolean isAdmin() {
		return this.roles.contains(Role.ADMIN);
	}

	/**
	 * The user's rights on a mount; an admin may read and write every mount.
	 * @param mount the mount's name
	 * @return the rights
	 */
	public MountAccess access(String mount) {
		if (isAdmin()) {
			return MountAccess.READ_WRITE;
		}
		return this.mounts.getOrDefault(mount, MountAccess.NONE);
	}

}
