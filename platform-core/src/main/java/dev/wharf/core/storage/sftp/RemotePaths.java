package dev.wharf.core.storage.sftp;

import java.io.IOException;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.StoragePath;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.FileMode;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;
import org.jspecify.annotations.Nullable;

/**
 * Maps {@link StoragePath}s to paths on the SFTP server under the mount's root and keeps
 * every access inside it, before any call that reads or changes anything. A
 * {@link StoragePath} cannot hold {@code ..}, so the lexical mapping stays in the root;
 * links on the server are the remaining way out, so paths are resolved with the server's
 * {@code realpath} (which OpenSSH answers with every link resolved) and checked name by
 * name against the canonical root; operations then use the resolved path.
 *
 * <p>
 * Between the check and the use, someone with shell access to the server could swap a
 * folder for a link (a time-of-check race); Wharf itself never creates links. The check
 * is only as good as the server's {@code realpath}: servers that answer it without
 * resolving links cannot be confined this way.
 */
final class RemotePaths {

	private final String root;

	private final String prefix;

	/**
	 * @param canonicalRoot the root as the server's {@code realpath} gave it
	 */
	RemotePaths(String canonicalRoot) {
		this.root = canonicalRoot;
		this.prefix = canonicalRoot.endsWith("/") ? canonicalRoot : canonicalRoot + "/";
	}

	String root() {
		return this.root;
	}

	/** The server path a storage path names, without any check of links. */
	String lexical(StoragePath path) {
		return path.isRoot() ? this.root : this.prefix + String.join("/", path.segments());
	}

	/** A name inside a server folder. */
	static String child(String folder, String name) {
		return folder.endsWith("/") ? folder + name : folder + "/" + name;
	}

	/**
	 * Whether a canonical server path is the root or below it (compared name by name).
	 */
	boolean contains(String canonical) {
		return canonical.equals(this.root) || canonical.startsWith(this.prefix);
	}

	/**
	 * The canonical server path of a storage path, every link on the way resolved; the
	 * last name need not exist.
	 * @throws AccessDeniedException if a link leads out of the root
	 * @throws SFTPException with {@code NO_SUCH_FILE} if a folder on the way is missing
	 */
	String real(SFTPEngine engine, StoragePath path) throws IOException {
		if (path.isRoot()) {
			return this.root;
		}
		return confine(path, engine.canonicalize(lexical(path)));
	}

	/**
	 * Checks the server's {@code realpath} answer for a storage path.
	 * @param path the storage path
	 * @param real the canonical server path the server gave for it
	 * @return {@code real}
	 * @throws AccessDeniedException if it is outside the root
	 */
	String confine(StoragePath path, String real) throws AccessDeniedException {
		if (!contains(real)) {
			throw new AccessDeniedException("Link leads out of the mount: " + path);
		}
		return real;
	}

	/**
	 * The canonical server folder that holds, or will hold, an entry.
	 * @throws ConflictException if the parent is not a folder
	 */
	String parentFolder(SFTPEngine engine, StoragePath path) throws IOException {
		StoragePath parent = path.parent();
		if (parent == null || parent.isRoot()) {
			return this.root;
		}
		String folder = real(engine, parent);
		if (engine.stat(folder).getType() != FileMode.Type.DIRECTORY) {
			throw new ConflictException("Not a folder: " + parent);
		}
		return folder;
	}

	/**
	 * The entry itself at a path, not what a link there leads to: its server path in the
	 * canonical parent folder, and its attributes if it exists.
	 * @param engine the channel
	 * @param path a path other than the root
	 * @param throughLinks whether the caller may write through a link there, so a link
	 * must stay in the root
	 * @throws AccessDeniedException if {@code throughLinks} and the entry is a link out
	 * of the root
	 */
	Entry entry(SFTPEngine engine, StoragePath path, boolean throughLinks) throws IOException {
		String folder = parentFolder(engine, path);
		String remote = child(folder, path.name());
		FileAttributes attributes = lstatOrNull(engine, remote);
		if (throughLinks && attributes != null && attributes.getType() == FileMode.Type.SYMLINK) {
			real(engine, path);
		}
		return new Entry(folder, remote, attributes);
	}

	/**
	 * The attributes of a server path without following a link, or {@code null} if
	 * nothing is there.
	 */
	static @Nullable FileAttributes lstatOrNull(SFTPEngine engine, String remote) throws IOException {
		try {
			return engine.lstat(remote);
		}
		catch (SFTPException ex) {
			if (ex.getStatusCode() == Response.StatusCode.NO_SUCH_FILE) {
				return null;
			}
			throw ex;
		}
	}

	/**
	 * An entry on the server.
	 *
	 * @param folder the canonical server path of its folder
	 * @param remote its canonical server path (its folder resolved, the name itself not
	 * followed)
	 * @param attributes its own attributes (a link's, not its target's), or {@code null}
	 * if it does not exist
	 */
	record Entry(String folder, String remote, @Nullable FileAttributes attributes) {

		boolean exists() {
			return this.attributes != null;
		}

		boolean isDirectory() {
			return this.attributes != null && this.attributes.getType() == FileMode.Type.DIRECTORY;
		}

	}

}
