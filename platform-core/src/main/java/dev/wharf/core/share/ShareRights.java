package dev.wharf.core.share;

import java.util.Optional;

import dev.wharf.core.security.MountAccess;

/** What the visitors of a share link may do. */
public enum ShareRights {

	/** List and download. */
	READ("read"),

	/** Upload only, as into a drop box: never list, download or replace. */
	UPLOAD("upload"),

	/** List, download, upload and change. */
	READ_WRITE("read-write");

	private final String configName;

	ShareRights(String configName) {
		this.configName = configName;
	}

	/** The name as stored, such as {@code read-write}. */
	public String configName() {
		return this.configName;
	}

	/** Whether visitors may list and download. */
	public boolean canRead() {
		return this != UPLOAD;
	}

	/** Whether visitors may upload. */
	public boolean canUpload() {
		return this != READ;
	}

	/** Whether visitors may replace, move and delete. */
	public boolean canWrite() {
		return this == READ_WRITE;
	}

	/** The right on the mount these rights need from whoever grants them. */
	public MountAccess needs() {
		return (this == READ) ? MountAccess.READ_ONLY : MountAccess.READ_WRITE;
	}

	/**
	 * Parses the stored name.
	 * @param name such as {@code read}
	 * @return the rights, or empty for an unknown name
	 */
	public static Optional<ShareRights> fromConfigName(String name) {
		for (ShareRights rights : values()) {
			if (rights.configName.equals(name)) {
				return Optional.of(rights);
			}
		}
		return Optional.empty();
	}

}
