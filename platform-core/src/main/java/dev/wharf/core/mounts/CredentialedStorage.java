package dev.wharf.core.mounts;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A user's view of a passthrough mount ({@link Storage#needsUserCredentials()}): every
 * call carries the user's login in its Reactor context, wherever it is subscribed (a
 * response body, a zip worker, the thumbnail pool, a data connection), so no caller can
 * forget it. Thread-safe if the storage is.
 */
final class CredentialedStorage extends ForwardingStorage {

	private final Context context;

	CredentialedStorage(Storage delegate, Credentials credentials) {
		super(delegate);
		this.context = credentials.context();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return delegate().stat(path).contextWrite(this.context);
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return delegate().list(directory).contextWrite(this.context);
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return delegate().read(path, range).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return delegate().write(path, content, options).contextWrite(this.context);
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return delegate().delete(path, recursive).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return delegate().createDirectory(path).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return delegate().createDirectories(path).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return delegate().move(source, target, replace).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return delegate().copy(source, target, replace).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return delegate().setLastModified(path, time).contextWrite(this.context);
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return delegate().concatenate(sources, target, options).contextWrite(this.context);
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return delegate().localFile(path).contextWrite(this.context);
	}

	@Override
	public Mono<Void> checkHealth() {
		return delegate().checkHealth().contextWrite(this.context);
	}

	/** Does nothing: the mount owns the backend. */
	@Override
	public void close() {
	}

}
