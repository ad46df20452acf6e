package dev.wharf.core.storage;

import java.time.Instant;
import java.util.Objects;

/**
 * What a backend knows about one path: its kind, size and last modification. Nothing host-specific
 * (owner, inode, host path) is carried, so protocols cannot leak it.
 *
 * @param path where the entry is in its mount
 * @param type its kind
 * @param size length in bytes for files; 0 for folders and others
 * @param lastModified last change of the content, never {@code null}; backends without times use the
 * write time
 */
public record FileEntry(StoragePath path, EntryType type, long size, Instant lastModified) {

	public FileEntry {
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(lastModified, "lastModified");
		if (size < 0) {
			throw new IllegalArgumentException("size must not be negative");
		}
	}

	/** The entry's name; {@code ""} for the root. */
	public String name() {
		return this.path.name();
	}

	/** Whether it is a regular file. */
	public boolean isFile() {
		return this.type == EntryType.FILE;
	}

	/** Whether it is a folder. */
	public boolean isDirectory() {
		return this.type == EntryType.DIRECTORY;
	}

}
