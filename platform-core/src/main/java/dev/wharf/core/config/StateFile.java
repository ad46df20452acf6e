package dev.wharf.core.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;

/**
 * A small text file of Wharf's own in the state folder ({@code wharf.state-dir}), one entry per line, that
 * replicas sharing the folder may change too: it is always replaced whole and atomically (a reader sees the
 * old file or the new one, never half of one), readable by its owner only, and a {@link #stamp()} tells when
 * another process replaced it. Lines that are blank or start with {@code #} are comments. Blocking: call it
 * from a worker thread. Holds no state of its own, so it is thread-safe; callers serialise their changes.
 */
public final class StateFile {

	private final Path file;

	private final String header;

	/**
	 * Names the file.
	 * @param file where it is
	 * @param header comment lines written at the top, each starting with {@code #} and ending with a line break
	 */
	public StateFile(Path file, String header) {
		this.file = file;
		this.header = header;
	}

	/** Where the file is. */
	public Path path() {
		return this.file;
	}

	/**
	 * Reads the file.
	 * @return every line (comments too, so line numbers can be told) and the stamp it had; nothing for a file
	 * that does not exist yet
	 * @throws UncheckedIOException if it exists but cannot be read
	 */
	public Content read() {
		String stamp = stamp();
		try {
			return new Content(Files.readAllLines(this.file, StandardCharsets.UTF_8), stamp);
		}
		catch (NoSuchFileException ex) {
			return new Content(List.of(), stamp);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + this.file, ex);
		}
	}

	/**
	 * Replaces the file atomically with the header and the given entries.
	 * @param entries the lines, without line breaks
	 * @throws IOException if it cannot be written
	 */
	public void write(List<String> entries) throws IOException {
		StringBuilder text = new StringBuilder(this.header);
		for (String entry : entries) {
			text.append(entry).append('\n');
		}
		Path folder = this.file.toAbsolutePath().getParent();
		Files.createDirectories(folder);
		Path temp = folder.resolve("." + this.file.getFileName() + "-" + UUID.randomUUID());
		try {
			Files.writeString(temp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
					StandardOpenOption.SYNC);
			try {
				Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
			}
			catch (UnsupportedOperationException ex) {
				// Not a POSIX file system: such files hold no secret anyway.
			}
			Files.move(temp, this.file, StandardCopyOption.ATOMIC_MOVE);
		}
		finally {
			Files.deleteIfExists(temp);
		}
	}

	/**
	 * What identifies the file's current version: changes when any process replaces it.
	 * @return the stamp, {@code missing} if there is no file
	 */
	public String stamp() {
		try {
			BasicFileAttributes attributes = Files.readAttributes(this.file, BasicFileAttributes.class);
			return attributes.lastModifiedTime().toMillis() + ":" + attributes.size() + ":" + attributes.fileKey();
		}
		catch (IOException ex) {
			return "missing";
		}
	}

	/**
	 * Whether a line is an entry rather than a comment.
	 * @param line a line as read
	 * @return whether it is neither blank nor starts with {@code #}
	 */
	public static boolean isEntry(String line) {
		return !line.isBlank() && !line.startsWith("#");
	}

	/**
	 * The file as read.
	 *
	 * @param lines every line, in order
	 * @param stamp the file's {@link StateFile#stamp()} just before it was read
	 */
	public record Content(List<String> lines, String stamp) {

		public Content {
			lines = List.copyOf(lines);
		}

	}

}
