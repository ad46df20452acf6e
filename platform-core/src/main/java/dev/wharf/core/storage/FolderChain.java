package dev.wharf.core.storage;

import org.jspecify.annotations.Nullable;

/**
 * The folders a tree walk is inside, from the one it started at down to the one it is
 * listing, so that a walk notices a link back into one of them (a link loop) and stops
 * there instead of going round for ever: local and sftp mounts follow links that stay
 * inside their root, so {@code self -> .} or {@code up -> ..} leads back into a folder
 * the walk is in. Folders are compared by {@link FileKey}; a folder without one (a
 * backend without links) is never part of a loop. Only the folders the walk is inside
 * count: a folder reached along two paths, neither inside the other, is walked along
 * both, as {@code find -L} and {@code tar -h} do. Immutable and thread-safe.
 */
public final class FolderChain {

	private final FileEntry folder;

	private final @Nullable FolderChain outer;

	private FolderChain(FileEntry folder, @Nullable FolderChain outer) {
		this.folder = folder;
		this.outer = outer;
	}

	/**
	 * The chain of a walk that starts at a folder.
	 * @param folder where the walk starts
	 * @return the chain holding that folder only
	 */
	public static FolderChain start(FileEntry folder) {
		return new FolderChain(folder, null);
	}

	/**
	 * The chain of the walk once it went into a folder.
	 * @param folder a child folder of the last folder of this chain, not a loop
	 * ({@link #loopsTo})
	 * @return a longer chain; this one is unchanged
	 */
	public FolderChain enter(FileEntry folder) {
		return new FolderChain(folder, this);
	}

	/**
	 * The folder of this chain that an entry is, if it is one.
	 * @param entry a child of the last folder of this chain
	 * @return the folder of the chain that the entry leads back to (its path is the one
	 * the walk took), or {@code null} if the entry is no folder of the chain
	 */
	public @Nullable FileEntry loopsTo(FileEntry entry) {
		FileKey key = entry.key();
		if (key == null || !entry.isDirectory()) {
			return null;
		}
		for (FolderChain chain = this; chain != null; chain = chain.outer) {
			if (key.equals(chain.folder.key())) {
				return chain.folder;
			}
		}
		return null;
	}

}
