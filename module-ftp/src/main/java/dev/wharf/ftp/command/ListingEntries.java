package dev.wharf.ftp.command;

import java.time.Instant;
import java.util.regex.Pattern;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.mounts.UserMount;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The entries a listing command shows for a path: a folder's children, a file itself, or
 * the virtual root's mount folders. Streams without holding the whole folder in memory;
 * entries that are neither files nor folders (such as links out of a mount) are left out.
 * Arguments are paths, not patterns: {@code *} is an ordinary character.
 */
final class ListingEntries {

	private static final Pattern OPTIONS = Pattern.compile("-[A-Za-z]+");

	private ListingEntries() {
	}

	/**
	 * Drops {@code ls}-style options ({@code -l}, {@code -la}) that clients put before
	 * the path of {@code LIST} and {@code NLST}.
	 * @param argument the argument
	 * @return the path, or {@code null} for the working folder
	 */
	static @Nullable String withoutOptions(@Nullable String argument) {
		String rest = argument;
		while (rest != null) {
			int space = rest.indexOf(' ');
			String first = (space < 0) ? rest : rest.substring(0, space);
			if (!OPTIONS.matcher(first).matches()) {
				break;
			}
			rest = (space < 0) ? null : rest.substring(space + 1);
		}
		return (rest == null || rest.isEmpty()) ? null : rest;
	}

	/**
	 * Checks a location and prepares what to list there: a folder's children, a file
	 * itself, or the mount folders of the virtual root.
	 * @param location the location
	 * @param foldersOnly whether a file is an error ({@code MLSD})
	 * @return the entries to stream, once the location is known to exist; fails with a
	 * storage error, or with {@link NotAFolder}
	 */
	static Mono<Flux<Listings.Listed>> prepare(MountLocation location, boolean foldersOnly) {
		if (location instanceof MountLocation.Top root) {
			return Mono.just(Flux.fromIterable(root.mounts()).concatMap(ListingEntries::mountFolder));
		}
		if (!(location instanceof MountLocation.InMount in)) {
			return Mono.error(new NotFoundException("No such folder: " + location.virtualPath()));
		}
		return in.mount().storage().stat(in.path()).flatMap(entry -> {
			if (entry.isDirectory()) {
				return Mono.just(in.mount()
					.storage()
					.list(in.path())
					.filter(child -> child.type() != EntryType.OTHER)
					.map(child -> new Listings.Listed(child.name(), child, in.mount())));
			}
			if (foldersOnly || !entry.isFile()) {
				return Mono.error(new NotAFolder());
			}
			return Mono.just(Flux.just(new Listings.Listed(in.virtualPath().name(), entry, in.mount())));
		});
	}

	private static Mono<Listings.Listed> mountFolder(UserMount mount) {
		return mount.storage()
			.stat(StoragePath.root())
			.map(FileEntry::lastModified)
			.onErrorReturn(Instant.EPOCH)
			.map(modified -> new Listings.Listed(mount.name(),
					new FileEntry(StoragePath.root(), EntryType.DIRECTORY, 0, modified), mount));
	}

	/** {@code MLSD} of a file. */
	static final class NotAFolder extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NotAFolder() {
			super("Not a folder", null, false, false);
		}

	}

}
