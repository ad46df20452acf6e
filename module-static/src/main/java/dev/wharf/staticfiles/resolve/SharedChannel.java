package dev.wharf.staticfiles.resolve;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * An open, read-only channel to a local file, shared by every response of a cached file
 * (nginx's {@code open_file_cache}): a hit then needs no open(2), fstat(2) or close(2),
 * only sendfile(2), which takes explicit offsets, so concurrent responses do not
 * interfere. A file replaced by a rename keeps being read from the version that was
 * opened, consistent with the cached length and tags, until the cache drops the entry.
 * Reference-counted: the cache entry holds one reference and each response another; the
 * channel closes with the last. At most {@value #MAX_OPEN} are open at once, so the cache
 * can never use up the process's file descriptors.
 *
 * <p>
 * Thread-safe.
 */
public final class SharedChannel {

	/**
	 * Most shared channels open at once; past this, responses open the file themselves.
	 */
	static final int MAX_OPEN = 512;

	private static final AtomicInteger opened = new AtomicInteger();

	private final FileChannel channel;

	private final AtomicInteger references = new AtomicInteger(1);

	private SharedChannel(FileChannel channel) {
		this.channel = channel;
	}

	/**
	 * Opens a file for sharing.
	 * @param file the local file
	 * @param size the length it must have
	 * @return the channel, with one reference for the caller; or {@code null} if too many
	 * are open
	 * @throws java.nio.file.NoSuchFileException if the file is gone
	 * @throws FileChangedException if its length is not {@code size}
	 * @throws IOException if it cannot be opened
	 */
	static @Nullable SharedChannel open(Path file, long size) throws IOException {
		if (opened.incrementAndGet() > MAX_OPEN) {
			opened.decrementAndGet();
			return null;
		}
		try {
			return new SharedChannel(openChecked(file, size));
		}
		catch (IOException | RuntimeException ex) {
			opened.decrementAndGet();
			throw ex;
		}
	}

	/**
	 * Opens a local file and checks its length.
	 * @param file the file
	 * @param size the length it must have
	 * @return the open channel, owned by the caller
	 * @throws java.nio.file.NoSuchFileException if the file is gone
	 * @throws FileChangedException if its length is not {@code size}
	 * @throws IOException if it cannot be opened
	 */
	public static FileChannel openChecked(Path file, long size) throws IOException {
		FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
		try {
			if (channel.size() != size) {
				throw new FileChangedException(file);
			}
			return channel;
		}
		catch (IOException | RuntimeException ex) {
			channel.close();
			throw ex;
		}
	}

	/** The channel; valid while a reference is held. */
	public FileChannel channel() {
		return this.channel;
	}

	/**
	 * Takes a reference, unless the channel is already closed.
	 * @return whether a reference was taken
	 */
	public boolean retain() {
		while (true) {
			int count = this.references.get();
			if (count == 0) {
				return false;
			}
			if (this.references.compareAndSet(count, count + 1)) {
				return true;
			}
		}
	}

	/** Gives a reference back; the last one closes the channel. */
	public void release() {
		if (this.references.decrementAndGet() == 0) {
			opened.decrementAndGet();
			try {
				this.channel.close();
			}
			catch (IOException ex) {
				// Read-only: nothing to lose.
			}
		}
	}

	/** How many shared channels are open in this process. */
	public static int openCount() {
		return opened.get();
	}

	/** A local file whose length is not the one it was resolved with. */
	public static final class FileChangedException extends IOException {

		private static final long serialVersionUID = 1L;

		FileChangedException(Path file) {
			super("Changed since it was resolved: " + file);
		}

	}

}
