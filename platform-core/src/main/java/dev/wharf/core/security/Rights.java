package dev.wharf.core.security;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.wharf.core.config.InvalidConfigurationException;

/**
 * Roles and rights per mount as the configuration gives them, to a configured user or to
 * a directory rule.
 *
 * @param roles the roles
 * @param mounts the rights by mount name
 */
record Rights(Set<Role> roles, Map<String, MountAccess> mounts) {

	/** No role and no mount. */
	static final Rights NONE = new Rights(Set.of(), Map.of());

	Rights {
		roles = Set.copyOf(roles);
		mounts = Map.copyOf(mounts);
	}

	/**
	 * Checks and reads configured roles and mounts.
	 * @param prefix the property that holds them, such as {@code wharf.security.users[0]}
	 * @param roles role names, as in {@link Role#configName()}
	 * @param mounts {@code ro} or {@code rw} by mount name
	 * @param mountExists tells whether a mount name is configured
	 * @return the rights
	 * @throws InvalidConfigurationException naming the first bad property
	 */
	static Rights parse(String prefix, List<String> roles, Map<String, String> mounts, Predicate<String> mountExists) {
		Set<Role> parsedRoles = EnumSet.noneOf(Role.class);
		for (String role : roles) {
			parsedRoles.add(Role.fromConfigName(role)
				.orElseThrow(() -> new InvalidConfigurationException(prefix + ".roles", role,
						"unknown role; known roles: " + Role.configNames())));
		}
		Map<String, MountAccess> parsedMounts = new LinkedHashMap<>();
		mounts.forEach((mount, access) -> {
			if (!mountExists.test(mount)) {
				throw new InvalidConfigurationException(prefix + ".mounts." + mount, access, "no such mount");
			}
			parsedMounts.put(mount,
					MountAccess.fromConfigValue(access)
						.orElseThrow(() -> new InvalidConfigurationException(prefix + ".mounts." + mount, access,
								"rights are 'ro' (read-only) or 'rw' (read and write)")));
		});
		return new Rights(parsedRoles, parsedMounts);
	}

	/**
	 * Both rights together: every role of either, and on each mount the greater right of
	 * the two.
	 * @param other the other rights
	 * @return the union
	 */
	Rights merge(Rights other) {
		Set<Role> roles = EnumSet.noneOf(Role.class);
		roles.addAll(this.roles);
		roles.addAll(other.roles);
		Map<String, MountAccess> mounts = new LinkedHashMap<>(this.mounts);
		other.mounts.forEach((mount, access) -> mounts.merge(mount, access,
				(mine, theirs) -> (mine.compareTo(theirs) >= 0) ? mine : theirs));
		return new Rights(roles, mounts);
	}

	/** Whether these rights allow nothing at all. */
	boolean isEmpty() {
		return this.roles.isEmpty() && this.mounts.values().stream().noneMatch(MountAccess::canRead);
	}

	/**
	 * A user with these rights.
	 * @param name the user's name
	 * @return the user
	 */
	User user(String name) {
		return new User(name, this.roles, this.mounts);
	}

}
