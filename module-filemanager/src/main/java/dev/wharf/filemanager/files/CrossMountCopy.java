package dev.wharf.filemanager.files;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageSupport;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import reactor.core.publisher.Mono;

/**
 * Copies a file or a folder tree from one mount to another by streaming each file through
 * Wharf (the storage SPI copies within one mount only), as
 * {@link StorageSupport#copyTree} walks it: link loops are left out and named in the
 * error once the rest is copied. Each file appears at the target atomically, complete or
 * not at all; a folder copy that fails part-way leaves the entries copied so far. Entries
 * that are neither files nor folders are skipped. Nothing at the target is replaced. The
 * walk's own errors (link loops, entries of another kind) name source paths with the
 * source mount's folder, as every other error of the file manager does; errors of single
 * reads and writes are named by each mount's storage already.
 */
final class CrossMountCopy {

	private CrossMountCopy() {
	}

	static Mono<FileEntry> copy(Location from, Location to) {
		Storage source = from.requireStorage();
		Storage target = to.requireStorage();
		String sourceFolder = from.virtual(StoragePath.root()).toString();
		return StorageSupport
			.copyTree(source, from.path(), target, to.path(), false,
					(file, destination, replace) -> target.write(destination, source.read(file.path(), ByteRange.all()),
							new WriteOptions(WriteMode.CREATE_NEW, file.size())))
			.onErrorMap(ConflictException.class,
					error -> new ConflictException(
							MountFolderErrors.name(String.valueOf(error.getMessage()), sourceFolder, from.path()),
							error));
	}

}
