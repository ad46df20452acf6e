package dev.wharf.core.storage;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a backend knows about one path: its kind, size and last modification, and what it
 * is on the backend. Nothing host-specific (owner, inode, host path) is carried in a form
 * protocols could show, so they cannot leak it: the {@link FileKey} is opaque.
 *
 * @param path where the entry is in its mount
 * @param type its kind
 * @param size length in bytes for files; 0 for folders and others
 * @param lastModified last change of the content, never {@code null}; backends without
 * times use the write time
 * @param key the same for every path that leads to this entry (through links), so that
 * tree walks notice a link loop; {@code null} where the backend has no links, or cannot
 * tell
 */
public record FileEntry(StoragePath path, EntryType type, long size, Instant lastModified, @Nullable FileKey key) {

	public FileEntry {
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(lastModified, "lastModified");
		if (size < 0) {
			throw new IllegalArgumentException("size must not be negative");
		}
	}

	/**
	 * An entry without a key, from a backend that has no links.
	 * @param path where the entry is in its mount
	 * @param type its kind
	 * @param size length in bytes for files; 0 for folders and others
	 * @param lastModified last change of the content
	 */
	public FileEntry(StoragePath path, EntryType type, long size, Instant lastModified) {
		this(path, type, size, lastModified, null);
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
