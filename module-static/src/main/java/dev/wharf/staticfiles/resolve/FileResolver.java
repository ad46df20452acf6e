package dev.wharf.staticfiles.resolve;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StorageErrorKind;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.web.MediaTypeRegistry;
import dev.wharf.staticfiles.site.Site;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Resolves a site's request paths through the storage SPI: the raw path is parsed once by
 * {@link StoragePath#parseUriPath} (so {@code ..}, encoded separators, NUL and malformed
 * UTF-8 never reach a backend), hidden names are refused, folders lead to their index
 * file, and a file is described with its local path (for zero-copy), its precompressed
 * siblings and, if small enough, its bytes.
 *
 * <p>
 * Thread-safe; every method returns at once and does its work on subscription, on the
 * storage's threads.
 */
public final class FileResolver {

	private static final int ATTEMPTS = 3;

	private static final String BROTLI_SUFFIX = ".br";

	private static final String GZIP_SUFFIX = ".gz";

	private final long maxBytesSize;

	/**
	 * Creates a resolver.
	 * @param maxBytesSize largest file whose bytes are loaded (for caching); -1 for none
	 */
	public FileResolver(long maxBytesSize) {
		this.maxBytesSize = maxBytesSize;
	}

	/**
	 * Resolves a path of a site.
	 * @param site the site
	 * @param rawRelative the raw request path after the site's prefix, starting with
	 * {@code /}
	 * @param previous what the path resolved to before (its bytes are reused if
	 * unchanged), or {@code null}
	 * @return what the path leads to; fails with
	 * {@link dev.wharf.core.storage.InvalidStoragePathException} for a bad path, or with
	 * the storage's error
	 */
	public Mono<Resolution> resolve(Site site, String rawRelative, @Nullable ResolvedFile previous) {
		return Mono.defer(() -> {
			StoragePath relative = StoragePath.parseUriPath(rawRelative);
			if (site.isHidden(relative)) {
				return Mono.just(Resolution.MISSING);
			}
			boolean folderRequested = rawRelative.endsWith("/");
			StoragePath path = site.root().resolve(relative);
			return site.storage().stat(path).flatMap(entry -> {
				if (entry.isFile()) {
					return (folderRequested && !relative.isRoot()) ? Mono.just(Resolution.MISSING)
							: file(site, entry, previous);
				}
				if (entry.isDirectory()) {
					return folderRequested ? index(site, path, 0, previous) : Mono.just(Resolution.TO_FOLDER);
				}
				return Mono.just(Resolution.MISSING);
			});
		})
			.retryWhen(Retry.max(ATTEMPTS - 1).filter(ChangedWhileReading.class::isInstance))
			.onErrorResume(FileResolver::isMissing, error -> Mono.just(Resolution.MISSING));
	}

	/**
	 * Resolves a file given by its path in the mount (a site's SPA fallback).
	 * @param site the site
	 * @param path the file
	 * @param previous what it resolved to before, or {@code null}
	 * @return the file, or {@link Resolution#MISSING} if it is not a file
	 */
	public Mono<Resolution> resolveFile(Site site, StoragePath path, @Nullable ResolvedFile previous) {
		return Mono.defer(() -> site.storage().stat(path))
			.flatMap(entry -> entry.isFile() ? file(site, entry, previous) : Mono.just(Resolution.MISSING))
			.retryWhen(Retry.max(ATTEMPTS - 1).filter(ChangedWhileReading.class::isInstance))
			.onErrorResume(FileResolver::isMissing, error -> Mono.just(Resolution.MISSING));
	}

	private Mono<Resolution> index(Site site, StoragePath folder, int next, @Nullable ResolvedFile previous) {
		List<String> names = site.index();
		if (next == names.size()) {
			return Mono.just(site.listing() ? new Resolution.Folder(folder) : Resolution.MISSING);
		}
		return site.storage()
			.stat(folder.resolve(names.get(next)))
			.flatMap(entry -> entry.isFile() ? file(site, entry, previous) : Mono.<Resolution>empty())
			.onErrorResume(FileResolver::isMissing, error -> Mono.empty())
			.switchIfEmpty(Mono.defer(() -> index(site, folder, next + 1, previous)));
	}

	private Mono<Resolution> file(Site site, FileEntry entry, @Nullable ResolvedFile previous) {
		String contentType = site.contentTypes().forName(entry.name());
		boolean siblings = site.precompressed() && MediaTypeRegistry.isCompressible(contentType);
		Mono<StoredFile> identity = stored(site, entry, (previous != null) ? previous.identity().source() : null);
		Mono<Optional<StoredFile>> brotli = siblings
				? sibling(site, entry.path(), BROTLI_SUFFIX, (previous != null) ? previous.brotli() : null)
				: Mono.just(Optional.empty());
		Mono<Optional<StoredFile>> gzip = siblings
				? sibling(site, entry.path(), GZIP_SUFFIX, (previous != null) ? previous.gzip() : null)
				: Mono.just(Optional.empty());
		return Mono.zip(identity, brotli, gzip)
			.map(all -> new Resolution.Found(ResolvedFile.create(site, all.getT1(), all.getT2().orElse(null),
					all.getT3().orElse(null), previous)));
	}

	private Mono<Optional<StoredFile>> sibling(Site site, StoragePath path, String suffix,
			@Nullable Representation previous) {
		String name = path.name() + suffix;
		StoragePath parent = path.parent();
		if (parent == null || !StoragePath.isValidName(name)) {
			return Mono.just(Optional.empty());
		}
		return site.storage()
			.stat(parent.resolve(name))
			.filter(FileEntry::isFile)
			.flatMap(entry -> stored(site, entry, (previous != null) ? previous.source() : null))
			.map(Optional::of)
			// A sibling that cannot be read (missing, a link out of the mount) is as good
			// as absent.
			.onErrorResume(StorageException.class, error -> Mono.empty())
			.defaultIfEmpty(Optional.empty());
	}

	private Mono<StoredFile> stored(Site site, FileEntry entry, @Nullable StoredFile previous) {
		Mono<Optional<Path>> local = site.hasLocalFiles()
				? site.storage().localFile(entry.path()).map(Optional::of).defaultIfEmpty(Optional.empty())
				: Mono.just(Optional.empty());
		return local.flatMap(file -> {
			StoredFile described = new StoredFile(entry.path(), entry.size(), entry.lastModified(), file.orElse(null),
					null);
			if (entry.size() > this.maxBytesSize) {
				return Mono.just(described);
			}
			if (previous != null && previous.bytes() != null && described.sameVersion(previous)) {
				return Mono.just(previous);
			}
			return bytes(site, entry).map(described::withBytes);
		});
	}

	private static Mono<byte[]> bytes(Site site, FileEntry entry) {
		if (entry.size() == 0) {
			return Mono.just(new byte[0]);
		}
		return DataBufferUtils.join(site.storage().read(entry.path(), ByteRange.all()), (int) entry.size())
			.map(buffer -> {
				try {
					byte[] bytes = new byte[buffer.readableByteCount()];
					buffer.read(bytes);
					return bytes;
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			})
			.defaultIfEmpty(new byte[0])
			.onErrorMap(DataBufferLimitException.class, ex -> new ChangedWhileReading())
			.<byte[]>handle((bytes, sink) -> {
				if (bytes.length != entry.size()) {
					// Replaced between the stat and the read: describe it again.
					sink.error(new ChangedWhileReading());
				}
				else {
					sink.next(bytes);
				}
			});
	}

	private static boolean isMissing(Throwable error) {
		return error instanceof StorageException storage
				&& (storage.kind() == StorageErrorKind.NOT_FOUND || storage.kind() == StorageErrorKind.CONFLICT);
	}

	/** A file changed while it was being read; the resolution is repeated. */
	static final class ChangedWhileReading extends RuntimeException {

		private static final long serialVersionUID = 1L;

		ChangedWhileReading() {
			super("The file changed while it was read", null, false, false);
		}

	}

}
