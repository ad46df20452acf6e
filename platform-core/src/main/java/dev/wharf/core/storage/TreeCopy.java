package dev.wharf.core.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.wharf.core.storage.StorageSupport.FileCopier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One copy of a file or a folder tree, for {@link StorageSupport#copyTree}: depth first,
 * each file with the given copier, entries that are neither files nor folders skipped. A
 * folder that is a link loop (see {@link FolderChain}) is not copied, nor a folder that
 * is the copy being made (reached through a link into the target); the copy completes
 * without them and then fails with a {@link ConflictException} that names each one. Steps
 * run one after another, possibly on different threads.
 */
final class TreeCopy {

	/** The most loops named in the error. */
	private static final int MAX_NAMED = 10;

	private final Storage from;

	private final Storage to;

	private final boolean replace;

	private final FileCopier files;

	private final Set<FileKey> created = ConcurrentHashMap.newKeySet();

	private final List<String> skipped = Collections.synchronizedList(new ArrayList<>());

	TreeCopy(Storage from, Storage to, boolean replace, FileCopier files) {
		this.from = from;
		this.to = to;
		this.replace = replace;
		this.files = files;
	}

	Mono<FileEntry> copy(StoragePath source, StoragePath target) {
		return this.from.stat(source)
			.flatMap(entry -> (entry.type() == EntryType.OTHER)
					? Mono.<FileEntry>error(new ConflictException(source + " is neither a file nor a folder"))
					: copy(entry, target, null))
			.flatMap(this::result);
	}

	private Mono<FileEntry> copy(FileEntry entry, StoragePath target, @Nullable FolderChain outer) {
		if (!entry.isDirectory()) {
			return this.files.copy(entry, target, this.replace);
		}
		FolderChain chain = (outer != null) ? outer.enter(entry) : FolderChain.start(entry);
		return this.to.createDirectory(target).flatMap(folder -> {
			FileKey key = folder.key();
			if (key != null) {
				this.created.add(key);
			}
			return this.from.list(entry.path())
				.filter(child -> child.type() != EntryType.OTHER && !skip(chain, child))
				.concatMap(child -> copy(child, target.resolve(child.name()), chain))
				.then(this.to.stat(target));
		});
	}

	private boolean skip(FolderChain chain, FileEntry child) {
		FileEntry loop = chain.loopsTo(child);
		if (loop != null) {
			this.skipped.add(child.path() + " leads back to " + loop.path());
			return true;
		}
		if (child.isDirectory() && child.key() != null && this.created.contains(child.key())) {
			this.skipped.add(child.path() + " is the copy being made");
			return true;
		}
		return false;
	}

	private Mono<FileEntry> result(FileEntry copied) {
		List<String> loops;
		synchronized (this.skipped) {
			loops = List.copyOf(this.skipped);
		}
		if (loops.isEmpty()) {
			return Mono.just(copied);
		}
		String named = String.join(", ", loops.subList(0, Math.min(loops.size(), MAX_NAMED)))
				+ ((loops.size() > MAX_NAMED) ? " and " + (loops.size() - MAX_NAMED) + " more" : "");
		return Mono
			.error(new ConflictException("Copied all but " + ((loops.size() == 1) ? "a link" : loops.size() + " links")
					+ " that would copy for ever (a link loop): " + named));
	}

}
