package dev.wharf.core.storage.local;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Arrays;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Swaps two names in one atomic step with Linux's {@code renameat2(RENAME_EXCHANGE)},
 * which Java has no call for. Elsewhere, or where the C library or the file system lacks
 * it, {@link #swap} returns {@code false} and changes nothing, so callers fall back to a
 * plain rename. Stateless and thread-safe.
 */
final class RenameExchange {

	private static final Log logger = LogFactory.getLog(RenameExchange.class);

	private static final int AT_FDCWD = -100;

	private static final int RENAME_EXCHANGE = 2;

	/** The charset the JDK itself uses for file names, so both see the same bytes. */
	private static final Charset FILE_NAMES = Charset
		.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));

	private static final boolean AVAILABLE = load();

	private RenameExchange() {
	}

	/**
	 * Whether this process can swap names at all (Linux, with a C library that has
	 * {@code renameat2}).
	 * @return whether {@link #swap} may succeed
	 */
	static boolean available() {
		return AVAILABLE;
	}

	/**
	 * Swaps the entries at two paths: afterwards each name holds what the other held.
	 * @param first an existing entry
	 * @param second another existing entry
	 * @return {@code true} if swapped; {@code false} if not possible here or if either is
	 * missing, in which case nothing changed
	 */
	static boolean swap(Path first, Path second) {
		if (!AVAILABLE) {
			return false;
		}
		try {
			return Libc.renameat2(AT_FDCWD, cString(first), AT_FDCWD, cString(second), RENAME_EXCHANGE) == 0;
		}
		catch (LastErrorException ex) {
			// ENOENT, EINVAL (file system without exchange), EXDEV, EACCES...: the
			// caller's rename reports it.
			return false;
		}
	}

	private static byte[] cString(Path path) {
		byte[] name = path.toString().getBytes(FILE_NAMES);
		return Arrays.copyOf(name, name.length + 1);
	}

	private static boolean load() {
		if (!System.getProperty("os.name", "").startsWith("Linux")) {
			return false;
		}
		try {
			Native.register(Libc.class, Platform.C_LIBRARY_NAME);
			return true;
		}
		catch (LinkageError | RuntimeException ex) {
			logger.info("renameat2 is not available (" + ex + "); local mounts replace files with rename(2)");
			return false;
		}
	}

	/** JNA's direct mapping of the C library, bound by {@link #load()}. */
	private static final class Libc {

		private Libc() {
		}

		static native int renameat2(int oldDirectory, byte[] oldPath, int newDirectory, byte[] newPath, int flags)
				throws LastErrorException;

	}

}
