package dev.wharf.core.storage;

import reactor.core.publisher.Mono;

/**
 * Operations every backend can offer on top of the primitive ones, and checks every
 * backend shares. Backends call these instead of writing their own.
 */
public final class StorageSupport {

	private StorageSupport() {
	}

	/**
	 * Refuses the root for operations that would remove or move it.
	 * @param path the path to check
	 * @param operation what is being done, for the message
	 * @throws AccessDeniedException if the path is the root
	 */
	public static void requireNotRoot(StoragePath path, String operation) {
		if (path.isRoot()) {
			throw new AccessDeniedException("Cannot " + operation + " the root of a mount");
		}
	}

	/**
	 * Refuses moving or copying a folder into itself or below itself.
	 * @param source what is moved or copied
	 * @param target where to
	 * @throws ConflictException if the target lies at or below the source
	 */
	public static void requireNotInside(StoragePath source, StoragePath target) {
		if (target.startsWith(source)) {
			throw new ConflictException("Cannot move or copy " + source + " into itself");
		}
	}

	/**
	 * Creates a folder and its missing ancestors with {@link Storage#createDirectory},
	 * one level at a time, tolerating another writer creating the same folders
	 * concurrently.
	 * @param storage the backend
	 * @param path the folder
	 * @return the folder's entry
	 */
	public static Mono<FileEntry> createDirectories(Storage storage, StoragePath path) {
		if (!storage.capabilities().contains(Capability.DIRECTORIES)) {
			return Mono.error(new UnsupportedCapabilityException(Capability.DIRECTORIES, "this"));
		}
		Mono<FileEntry> result = storage.stat(StoragePath.root());
		StoragePath current = StoragePath.root();
		for (String segment : path.segments()) {
			StoragePath next = current.resolve(StoragePath.reserved(segment));
			result = result.then(ensureDirectory(storage, next));
			current = next;
		}
		return result;
	}

	private static Mono<FileEntry> ensureDirectory(Storage storage, StoragePath path) {
		return storage.stat(path)
			.onErrorResume(NotFoundException.class,
					missing -> storage.createDirectory(path)
						.onErrorResume(AlreadyExistsException.class, raced -> storage.stat(path)))
			.flatMap(entry -> entry.isDirectory() ? Mono.just(entry)
					: Mono.error(new ConflictException(path + " is not a folder")));
	}

	/**
	 * Copies a file, or a folder entry by entry (depth first, skipping entries that are
	 * neither files nor folders), using a given way to copy each file.
	 * @param storage the backend
	 * @param source what to copy
	 * @param target where to
	 * @param replace whether an existing file at the target is replaced; an existing
	 * folder never is
	 * @param fileCopier copies one file
	 * @return the new entry; fails with {@link ConflictException}, once the rest is
	 * copied, if a folder below the source is a link back into a folder it is in (a link
	 * loop, see {@link FolderChain}) or into the copy
	 */
	public static Mono<FileEntry> copyTree(Storage storage, StoragePath source, StoragePath target, boolean replace,
			FileCopier fileCopier) {
		return Mono.defer(() -> {
			requireNotInside(source, target);
			return new TreeCopy(storage, storage, replace, fileCopier).copy(source, target);
		});
	}

	/**
	 * Copies a file, or a folder entry by entry, from one storage to another (such as
	 * another mount), as
	 * {@link #copyTree(Storage, StoragePath, StoragePath, boolean, FileCopier)} does
	 * within one.
	 * @param from the backend to copy from
	 * @param source what to copy
	 * @param to the backend to copy to
	 * @param target where to
	 * @param replace whether an existing file at the target is replaced; an existing
	 * folder never is
	 * @param fileCopier copies one file
	 * @return the new entry in {@code to}
	 */
	public static Mono<FileEntry> copyTree(Storage from, StoragePath source, Storage to, StoragePath target,
			boolean replace, FileCopier fileCopier) {
		return Mono.defer(() -> new TreeCopy(from, to, replace, fileCopier).copy(source, target));
	}

	/**
	 * Copies by streaming each file's bytes through {@link Storage#read} and
	 * {@link Storage#write}.
	 * @param storage the backend
	 * @param source what to copy
	 * @param target where to
	 * @param replace whether an existing file at the target is replaced
	 * @return the new entry
	 */
	public static Mono<FileEntry> streamCopy(Storage storage, StoragePath source, StoragePath target, boolean replace) {
		return copyTree(storage, source, target, replace,
				(file, to, overwrite) -> storage.write(to, storage.read(file.path(), ByteRange.all()),
						new WriteOptions(overwrite ? WriteMode.REPLACE : WriteMode.CREATE_NEW, file.size())));
	}

	/** Copies one file for {@link #copyTree}. */
	@FunctionalInterface
	public interface FileCopier {

		/**
		 * Copies one file.
		 * @param source the file's entry
		 * @param target where to
		 * @param replace whether an existing file at the target is replaced
		 * @return the new file's entry
		 */
		Mono<FileEntry> copy(FileEntry source, StoragePath target, boolean replace);

	}

}
