package dev.wharf.core.security;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** What a user may do beyond their per-mount rights. */
public enum Role {

	/** Everything, on every mount, read and write. */
	ADMIN("admin"),

	/** The file manager and FTP, on the mounts their rights name. */
	USER("user"),

	/** Reads from the build cache. */
	CACHE_READER("cache-reader"),

	/** Reads from and writes to the build cache. */
	CACHE_WRITER("cache-writer");

	private final String configName;

	Role(String configName) {
		this.configName = configName;
	}

	/** The name used in configuration, such as {@code cache-reader}. */
	public String configName() {
		return this.configName;
	}

	/**
	 * Finds a role by its configuration name.
	 * @param name such as {@code admin}
	 * @return the role, or empty
	 */
	public static Optional<Role> fromConfigName(String name) {
		String normalised = name.trim().toLowerCase(Locale.ROOT);
		return Arrays.stream(values()).filter(role -> role.configName.equals(normalised)).findFirst();
	}

	/** Every configuration name, for messages. */
	public static String configNames() {
		return Arrays.stream(values()).map(Role::configName).collect(Collectors.joining(", "));
	}

}
