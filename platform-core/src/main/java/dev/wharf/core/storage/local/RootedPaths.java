package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;

/**
 * Maps {@link StoragePath}s to host paths under one root folder and keeps every access
 * inside it. A {@link StoragePath} cannot hold {@code ..}, so the lexical mapping stays
 * in the root; symbolic links are the remaining way out, so every path is checked through
 * its real (link-resolved) form, and a link that leads out of the root or nowhere
 * (dangling) is refused.
 *
 * <p>
 * Between the check and the use, someone with shell access to the host could swap a
 * folder for a link (a time-of-check race). Wharf's own protocols cannot create links, so
 * this only matters where untrusted local users share the folder; final components are
 * opened without following links to narrow it.
 */
final class RootedPaths {

	private final Path root;

	/**
	 * @param root the root folder; must exist
	 */
	RootedPaths(Path root) throws IOException {
		this.root = root.toRealPath();
	}

	Path root() {
		return this.root;
	}

	/** The host path a storage path names, without any check of links. */
	Path lexical(StoragePath path) {
		Path result = this.root;
		for (String segment : path.segments()) {
			result = result.resolve(segment);
		}
		return result;
	}

	/**
	 * The real host path of an existing entry, every link on the way resolved and
	 * checked.
	 * @throws NotFoundException if nothing is there
	 * @throws AccessDeniedException if a link leads out of the root or nowhere
	 * @throws BackendUnavailableException if the root folder itself is gone
	 */
	Path existing(StoragePath path) throws IOException {
		Path lexical = lexical(path);
		Path real;
		try {
			real = lexical.toRealPath();
		}
		catch (NoSuchFileException ex) {
			if (Files.isSymbolicLink(lexical)) {
				throw new AccessDeniedException("Link leads nowhere: " + path);
			}
			if (!Files.isDirectory(this.root)) {
				// Removed, renamed or unmounted while running: the mount is unavailable,
				// not empty. Nothing
				// recreates it, so no write lands where the folder used to be; it works
				// again once it is back.
				throw new BackendUnavailableException("The mount's folder is missing", ex);
			}
			throw new NotFoundException("Not found: " + path, ex);
		}
		if (!real.startsWith(this.root)) {
			throw new AccessDeniedException("Link leads out of the mount: " + path);
		}
		return real;
	}

	/**
	 * The real folder that holds (or will hold) an entry.
	 * @throws NotFoundException if the parent is missing
	 * @throws ConflictException if the parent is not a folder
	 */
	Path parentFolder(StoragePath path) throws IOException {
		StoragePath parent = path.parent();
		Path real = existing((parent != null) ? parent : StoragePath.root());
		if (!Files.isDirectory(real)) {
			throw new ConflictException("Not a folder: " + parent);
		}
		return real;
	}

	/**
	 * The host path at which to create, replace or remove an entry itself (not what a
	 * link there points to): the real parent folder plus the name. If the entry is a
	 * link, it must stay in the root.
	 * @throws AccessDeniedException if the entry is a link out of the root or a dangling
	 * link
	 */
	Path entry(StoragePath path) throws IOException {
		Path target = parentFolder(path).resolve(path.name());
		if (Files.isSymbolicLink(target)) {
			existing(path);
		}
		return target;
	}

	/** Whether a host path is a link, without following it. */
	static boolean isLink(Path path) {
		return Files.isSymbolicLink(path);
	}

	/** Whether anything (a link included) is at a host path. */
	static boolean exists(Path path) {
		return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
	}

}
