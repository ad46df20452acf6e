package dev.wharf.core.security;

import java.util.Locale;
import java.util.Optional;

/** A user's rights on one mount. */
public enum MountAccess {

	/** No access: the mount is invisible. */
	NONE,

	/** Read-only ({@code ro}). */
	READ_ONLY,

	/** Read and write ({@code rw}). */
	READ_WRITE;

	/** Whether reading is allowed. */
	public boolean canRead() {
		return this != NONE;
	}

	/** Whether writing is allowed. */
	public boolean canWrite() {
		return this == READ_WRITE;
	}

	/**
	 * Parses the configuration form.
	 * @param value {@code ro} or {@code rw}
	 * @return the access, or empty for anything else
	 */
	public static Optional<MountAccess> fromConfigValue(String value) {
		return switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "ro" -> Optional.of(READ_ONLY);
			case "rw" -> Optional.of(READ_WRITE);
			default -> Optional.empty();
		};
	}

}
