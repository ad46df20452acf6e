package dev.wharf.core.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A small text file of Wharf's own in the state folder ({@code wharf.state-dir}), one
 * entry per line, that replicas sharing the folder may change too, read into a snapshot
 * of type {@code S} that lookups answer from. A change re-reads the file, applies itself
 * and replaces the file whole and atomically (a reader sees the old file or the new one,
 * never half of one), under a lock on a file beside it so that replicas sharing the
 * folder do not lose each other's changes, readable by its owner only; the file is read
 * again when another process replaced it, checked every {@code refresh}. Lines that are
 * blank or start with {@code #} are comments. File access runs on a given bounded
 * scheduler; changes are serialised. Thread-safe.
 *
 * @param <S> what the file's entries are read into
 */
public final class StateFile<S> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(StateFile.class);

	/**
	 * One monitor per file in this process: a file lock is held by the process, not by a
	 * thread.
	 */
	private static final Map<Path, Object> FILE_LOCKS = new ConcurrentHashMap<>();

	private final Path file;

	private final String header;

	private final Function<List<String>, S> reader;

	private final Scheduler io;

	private final Object writeLock = new Object();

	private final Disposable refresher;

	private volatile Loaded<S> loaded;

	/**
	 * Reads the file (if it exists) and starts watching it.
	 * @param file where it is
	 * @param header comment lines written at the top, each starting with {@code #} and
	 * ending with a line break
	 * @param reader makes the snapshot of the entries, which are the file's lines but
	 * comments (it may log and skip entries it cannot read)
	 * @param io where file access runs; owned (and disposed) by this file
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public StateFile(Path file, String header, Function<List<String>, S> reader, Scheduler io, Duration refresh) {
		this.file = file;
		this.header = header;
		this.reader = reader;
		this.io = io;
		this.loaded = load();
		this.refresher = io.schedulePeriodically(this::refreshQuietly, refresh.toMillis(), refresh.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/** Where the file is. */
	public Path path() {
		return this.file;
	}

	/** The snapshot as last read, from memory. */
	public S current() {
		return this.loaded.snapshot();
	}

	/**
	 * Changes the file.
	 * @param writer the entries the file is to hold, from the snapshot of the file as it
	 * is now
	 * @return the snapshots before and after, once the file is replaced
	 */
	public Mono<Change<S>> change(Function<S, List<String>> writer) {
		return Mono.fromCallable(() -> {
			synchronized (this.writeLock) {
				// Read, change and replace as one step for every process sharing the
				// folder (and every store over
				// the same file in this one), or two changes at once would each write
				// what they read, losing one.
				synchronized (FILE_LOCKS.computeIfAbsent(this.file.toAbsolutePath().normalize(),
						path -> new Object())) {
					try (FileChannel lock = lockFile()) {
						lock.lock();
						S before = load().snapshot();
						write(writer.apply(before));
						this.loaded = load();
						return new Change<>(before, this.loaded.snapshot());
					}
				}
			}
		}).subscribeOn(this.io);
	}

	private FileChannel lockFile() throws IOException {
		Path folder = folder();
		Files.createDirectories(folder);
		return FileChannel.open(folder.resolve("." + this.file.getFileName() + ".lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE);
	}

	private Path folder() throws IOException {
		Path folder = this.file.toAbsolutePath().getParent();
		if (folder == null) {
			throw new IOException("The state file is not in a folder: " + this.file);
		}
		return folder;
	}

	/** Reads the file again if another process replaced it. */
	void refresh() {
		if (!this.loaded.stamp().equals(stamp())) {
			synchronized (this.writeLock) {
				this.loaded = load();
			}
		}
	}

	private void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not re-read " + this.file + "; keeping what was read before: " + ex.getMessage());
		}
	}

	private Loaded<S> load() {
		String stamp = stamp();
		List<String> lines;
		try {
			lines = Files.readAllLines(this.file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			lines = List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + this.file, ex);
		}
		return new Loaded<>(
				this.reader.apply(lines.stream().filter(line -> !line.isBlank() && !line.startsWith("#")).toList()),
				stamp);
	}

	private void write(List<String> entries) throws IOException {
		StringBuilder text = new StringBuilder(this.header);
		for (String entry : entries) {
			text.append(entry).append('\n');
		}
		Path folder = folder();
		Files.createDirectories(folder);
		Path temp = folder.resolve("." + this.file.getFileName() + "-" + UUID.randomUUID());
		try {
			Files.writeString(temp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
					StandardOpenOption.WRITE, StandardOpenOption.SYNC);
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

	private String stamp() {
		try {
			BasicFileAttributes attributes = Files.readAttributes(this.file, BasicFileAttributes.class);
			return attributes.lastModifiedTime().toMillis() + ":" + attributes.size() + ":" + attributes.fileKey();
		}
		catch (IOException ex) {
			return "missing";
		}
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.refresher.dispose();
		this.io.dispose();
	}

	/**
	 * What a change did.
	 *
	 * @param <S> the snapshot's type
	 * @param before the file as it was just before
	 * @param after the file as it is now
	 */
	public record Change<S>(S before, S after) {
	}

	private record Loaded<S>(S snapshot, String stamp) {
	}

}
