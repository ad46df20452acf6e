package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.StoragePath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Puts a complete temporary file in the place of its target in one atomic step, for
 * mounts that do not flush writes ({@code sync-writes: false}).
 * <p>
 * Why not a plain rename: ext4 ({@code auto_da_alloc}, on by default) writes a file's
 * data out when it is renamed over an existing file, inside the rename and under the
 * folder's lock. So replacing uploads in one folder would queue behind each other's disk
 * writes (docs/benchmarks/ftp.md, "ext4 flushed every upload that replaced a file").
 * Swapping the two names and deleting the old file publishes the new one just as
 * atomically, without that flush; on a power loss the new file may then be short, which
 * is what a mount without synced writes accepts. Blocking: call on the mount's I/O
 * threads.
 */
final class UnflushedReplace {

	private static final Log logger = LogFactory.getLog(UnflushedReplace.class);

	private UnflushedReplace() {
	}

	/**
	 * Replaces {@code target} with {@code file}, or moves it there if the target does not
	 * exist.
	 * @param file the complete temporary file, closed
	 * @param target where it belongs
	 * @param path the target's storage path, for messages
	 * @throws IOException if neither an exchange nor a rename is possible; nothing
	 * changed then
	 */
	static void replace(Path file, Path target, StoragePath path) throws IOException {
		if (!RenameExchange.swap(file, target)) {
			Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
			return;
		}
		// The caller checked that the target is no folder, but one may have been created
		// since; a rename over
		// a folder fails, so the exchange must too.
		if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
			if (!RenameExchange.swap(file, target)) {
				logger.error("Could not put the folder " + path + " back after a refused replace; it is at " + file);
			}
			throw new ConflictException("Is a folder: " + path);
		}
		try {
			Files.delete(file);
		}
		catch (IOException ex) {
			// Under a reserved name, so never listed; the sweep at the next start deletes
			// it.
			logger.warn("Could not remove the replaced version of " + path + "; it goes at the next start", ex);
		}
	}

}
