package dev.wharf.core.storage;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link FileEntry} is on its backend, whichever path led to it: two entries with
 * equal keys are the same file or folder, reached through links. Tree walks compare the
 * keys of folders to notice a link back into a folder they are in (see
 * {@link FolderChain}). Opaque: only {@link #equals} means anything, and
 * {@link #toString} never shows what the key is made of (a device and inode number, a
 * host path), so no protocol can leak it. Immutable and thread-safe.
 */
public final class FileKey {

	private final Object value;

	private FileKey(Object value) {
		this.value = value;
	}

	/**
	 * A key from what the backend identifies an entry by.
	 * @param value such as {@link java.nio.file.attribute.BasicFileAttributes#fileKey()}
	 * or a canonical server path; must implement {@code equals} and {@code hashCode}
	 * @return the key
	 */
	public static FileKey of(Object value) {
		return new FileKey(Objects.requireNonNull(value, "value"));
	}

	@Override
	public boolean equals(@Nullable Object obj) {
		return obj instanceof FileKey other && this.value.equals(other.value);
	}

	@Override
	public int hashCode() {
		return this.value.hashCode();
	}

	@Override
	public String toString() {
		return "FileKey";
	}

}
