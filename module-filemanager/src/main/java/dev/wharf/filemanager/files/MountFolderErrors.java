package dev.wharf.filemanager.files;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A user's view of one mount whose errors name paths as the file manager shows them: with
 * the mount's folder in front ({@code Not found: /data/photos}, not the storage's
 * {@code Not found: /photos}), so a client is told the path it asked for. Storage
 * messages name paths inside the mount; each call knows its own paths, so a path in a
 * message is recognised only where it is one of them, an ancestor (a missing parent) or
 * lies below one (a file inside a folder being deleted or copied), never guessed from the
 * text alone. The error keeps its kind and class, so code that tells errors apart (a
 * missing file, an existing target) behaves as before. Through a share link the paths are
 * named from the share's root instead, and a folder above it is named as that root.
 * Thread-safe if the storage is.
 */
final class MountFolderErrors extends ForwardingStorage {

	/**
	 * What may follow a path in a message: the end, the next name, or words and
	 * punctuation.
	 */
	private static final String AFTER_PATH = "/ ,;:)'\"";

	private final StoragePath root;

	private final String folder;

	/**
	 * Wraps a storage.
	 * @param delegate the user's view of the mount
	 * @param folder the mount's folder in the file manager, such as {@code /data}
	 */
	MountFolderErrors(Storage delegate, StoragePath folder) {
		this(delegate, StoragePath.root(), folder.toString());
	}

	/**
	 * Wraps a storage whose tree starts below the mount's root (a share link's).
	 * @param delegate the user's view of the mount
	 * @param root where the tree starts inside the mount
	 * @param folder what is put in front of paths below {@code root}: empty for a share
	 */
	MountFolderErrors(Storage delegate, StoragePath root, String folder) {
		super(delegate);
		this.root = root;
		this.folder = folder;
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return delegate().stat(path).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return delegate().list(directory).onErrorMap(StorageException.class, error -> named(error, directory));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return delegate().read(path, range).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return delegate().write(path, content, options).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return delegate().delete(path, recursive).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return delegate().createDirectory(path).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return delegate().createDirectories(path).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return delegate().move(source, target, replace)
			.onErrorMap(StorageException.class, error -> named(error, source, target));
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return delegate().copy(source, target, replace)
			.onErrorMap(StorageException.class, error -> named(error, source, target));
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return delegate().setLastModified(path, time).onErrorMap(StorageException.class, error -> named(error, path));
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		List<StoragePath> paths = new ArrayList<>(sources);
		paths.add(target);
		return delegate().concatenate(sources, target, options)
			.onErrorMap(StorageException.class, error -> named(error, paths.toArray(StoragePath[]::new)));
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return delegate().localFile(path).onErrorMap(StorageException.class, error -> named(error, path));
	}

	/** Does nothing: the mount owns the backend. */
	@Override
	public void close() {
	}

	private StorageException named(StorageException error, StoragePath... paths) {
		String message = error.getMessage();
		if (message == null) {
			return error;
		}
		String renamed = name(message, this.root, this.folder, paths);
		return renamed.equals(message) ? error : withMessage(error, renamed);
	}

	/**
	 * A message with the mount's folder put in front of each path of a call that it
	 * names.
	 * @param message the storage's message
	 * @param folder the mount's folder, such as {@code /data}
	 * @param paths the paths the call was given, inside the mount
	 * @return the message as the file manager shows it
	 */
	static String name(String message, String folder, StoragePath... paths) {
		return name(message, StoragePath.root(), folder, paths);
	}

	/**
	 * A message with each path of a call that it names shown from a root inside the
	 * mount.
	 * @param message the storage's message
	 * @param root where the shown tree starts inside the mount
	 * @param folder what is put in front of each path below the root
	 * @param paths the paths the call was given, inside the mount
	 * @return the message as the file manager shows it
	 */
	static String name(String message, StoragePath root, String folder, StoragePath... paths) {
		Map<String, String> shown = new HashMap<>();
		String top = folder.isEmpty() ? "/" : folder;
		for (StoragePath path : paths) {
			for (StoragePath at = path; at != null && !at.isRoot(); at = at.parent()) {
				// A folder above the root (the parent of a share's folder) is not shown:
				// its top stands for it.
				StoragePath below = at.startsWith(root) ? at.relativeTo(root) : StoragePath.root();
				shown.put(at.toString(), below.isRoot() ? top : folder + below);
			}
		}
		List<String> known = new ArrayList<>(shown.keySet());
		known.sort(Comparator.comparingInt(String::length).reversed());
		StringBuilder named = new StringBuilder(message.length() + folder.length() * 2);
		int copied = 0;
		int i = 0;
		while (i < message.length()) {
			if (message.charAt(i) != '/' || (i > 0 && message.charAt(i - 1) != ' ')) {
				i++;
				continue;
			}
			String path = pathAt(message, i, known);
			if (path == null) {
				i++;
				continue;
			}
			named.append(message, copied, i);
			if (path.equals("/")) {
				named.append(root.isRoot() ? folder : "/");
			}
			else {
				named.append(shown.get(path));
			}
			i += path.length();
			copied = i;
		}
		return named.append(message, copied, message.length()).toString();
	}

	/**
	 * The longest known path (or the root) that the message names at an index, or
	 * {@code null}.
	 */
	private static @Nullable String pathAt(String message, int index, List<String> known) {
		for (String path : known) {
			if (message.startsWith(path, index) && endsThere(message, index + path.length())) {
				return path;
			}
		}
		// The root alone, as in "Already exists: /"; a "/" followed by a name is a path
		// no call was given.
		boolean root = endsThere(message, index + 1)
				&& (index + 1 == message.length() || message.charAt(index + 1) != '/');
		return root ? "/" : null;
	}

	private static boolean endsThere(String message, int index) {
		return index == message.length() || AFTER_PATH.indexOf(message.charAt(index)) >= 0;
	}

	/**
	 * The same kind of error with another message; the original stays as the cause, for
	 * the log.
	 */
	private static StorageException withMessage(StorageException error, String message) {
		return switch (error.kind()) {
			case NOT_FOUND -> new NotFoundException(message, error);
			case ALREADY_EXISTS -> new AlreadyExistsException(message, error);
			case ACCESS_DENIED -> new AccessDeniedException(message, error);
			case CONFLICT -> new ConflictException(message, error);
			case QUOTA_EXCEEDED -> new QuotaExceededException(message, error);
			case INVALID_CONTENT -> new InvalidContentException(message, error);
			case BACKEND_UNAVAILABLE -> new BackendUnavailableException(message, error);
			case IO_ERROR -> new StorageIoException(message, error);
			// Their messages name no path of the mount.
			case INVALID_PATH, UNSUPPORTED -> error;
		};
	}

}
