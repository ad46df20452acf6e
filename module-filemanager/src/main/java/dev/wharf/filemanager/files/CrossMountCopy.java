package dev.wharf.filemanager.files;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import reactor.core.publisher.Mono;

/**
 * Copies a file or a folder tree from one mount to another by streaming each file through Wharf (the
 * storage SPI copies within one mount only). Each file appears at the target atomically, complete or not
 * at all; a folder copy that fails part-way leaves the entries copied so far. Entries that are neither
 * files nor folders are skipped. Nothing at the target is replaced.
 */
final class CrossMountCopy {

	private CrossMountCopy() {
	}

	static Mono<FileEntry> copy(Storage source, StoragePath from, Storage target, StoragePath to) {
		return source.stat(from).flatMap(entry -> switch (entry.type()) {
			case FILE -> target.write(to, source.read(from, ByteRange.all()),
					new WriteOptions(WriteMode.CREATE_NEW, entry.size()));
			case DIRECTORY -> target.createDirectory(to)
				.thenMany(source.list(from)
					.filter(child -> child.type() != EntryType.OTHER)
					.concatMap(child -> copy(source, child.path(), target, to.resolve(child.name()))))
				.then(target.stat(to));
			case OTHER -> Mono.error(new ConflictException(from + " is neither a file nor a folder"));
		});
	}

}
