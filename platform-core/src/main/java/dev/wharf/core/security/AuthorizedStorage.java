package dev.wharf.core.security;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.HeldFile;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.mount.Mount;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A mount's storage as one user may use it: reads need {@link MountAccess#canRead()},
 * changes need {@link MountAccess#canWrite()}, checked on every call. Protocols hand
 * users only this view, so rights are enforced in one place. Every method of
 * {@link Storage} is overridden here, not left to {@link ForwardingStorage}: a method
 * added to the SPI must be given its rights check.
 */
public final class AuthorizedStorage extends ForwardingStorage {

	private final String mount;

	private final MountAccess access;

	private AuthorizedStorage(Storage delegate, String mount, MountAccess access) {
		super(delegate);
		this.mount = mount;
		this.access = access;
	}

	/**
	 * The view of a mount for a user.
	 * @param mount the mount
	 * @param user the user
	 * @return the storage, limited to the user's rights
	 * @throws AccessDeniedException if the user has no right on the mount at all
	 */
	public static AuthorizedStorage of(Mount mount, User user) {
		MountAccess access = user.access(mount.name());
		if (!access.canRead()) {
			throw new AccessDeniedException("No access to mount '" + mount.name() + "'");
		}
		return new AuthorizedStorage(mount.storage(), mount.name(), access);
	}

	/** The user's rights on this mount. */
	public MountAccess access() {
		return this.access;
	}

	private <T> Mono<T> reading(Mono<T> operation) {
		return this.access.canRead() ? operation : Mono.error(denied("read"));
	}

	private <T> Mono<T> writing(Mono<T> operation) {
		return this.access.canWrite() ? operation : Mono.error(denied("write"));
	}

	private AccessDeniedException denied(String what) {
		return new AccessDeniedException("No " + what + " access to mount '" + this.mount + "'");
	}

	@Override
	public Set<Capability> capabilities() {
		return delegate().capabilities();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return reading(delegate().stat(path));
	}

	@Override
	public @Nullable FileEntry statAtHand(StoragePath path) {
		// Refused the asynchronous way, with its error.
		return this.access.canRead() ? delegate().statAtHand(path) : null;
	}

	@Override
	public @Nullable HeldFile readAtHand(StoragePath path, long maxSize) {
		return this.access.canRead() ? delegate().readAtHand(path, maxSize) : null;
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return this.access.canRead() ? delegate().list(directory) : Flux.error(denied("read"));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return this.access.canRead() ? delegate().read(path, range) : Flux.error(denied("read"));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return writing(delegate().write(path, content, options));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return writing(delegate().delete(path, recursive));
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return writing(delegate().createDirectory(path));
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return writing(delegate().createDirectories(path));
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return writing(delegate().move(source, target, replace));
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return writing(delegate().copy(source, target, replace));
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return writing(delegate().setLastModified(path, time));
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return writing(delegate().concatenate(sources, target, options));
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return reading(delegate().localFile(path));
	}

	@Override
	public boolean needsUserCredentials() {
		return delegate().needsUserCredentials();
	}

	@Override
	public Mono<Void> checkHealth() {
		return delegate().checkHealth();
	}

	/** Does nothing: the mount, not a user's view of it, owns the backend. */
	@Override
	public void close() {
	}

}
