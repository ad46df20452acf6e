package dev.wharf.core.storage;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The base of every storage decorator (rights, credentials, metrics, error messages, test
 * faults): every method of {@link Storage}, default methods included, is handed to the
 * delegate unchanged, so the delegate's own copy, zero-copy and health check are what
 * runs. Subclasses override only what they change. When a method is added to
 * {@link Storage}, it is added here once, and every decorator forwards it; a decorator
 * that must not forward a new method blindly (as one that checks rights) overrides every
 * method itself. Thread-safe if the delegate is.
 */
public abstract class ForwardingStorage implements Storage {

	private final Storage delegate;

	/**
	 * Wraps a storage.
	 * @param delegate the storage calls are handed to
	 */
	protected ForwardingStorage(Storage delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
	}

	/**
	 * The storage calls are handed to; subclasses that hand out their delegate widen
	 * this.
	 */
	protected Storage delegate() {
		return this.delegate;
	}

	@Override
	public Set<Capability> capabilities() {
		return delegate().capabilities();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return delegate().stat(path);
	}

	@Override
	public @Nullable FileEntry statAtHand(StoragePath path) {
		return delegate().statAtHand(path);
	}

	@Override
	public @Nullable HeldFile readAtHand(StoragePath path, long maxSize) {
		return delegate().readAtHand(path, maxSize);
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return delegate().list(directory);
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return delegate().read(path, range);
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return delegate().write(path, content, options);
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return delegate().delete(path, recursive);
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return delegate().createDirectory(path);
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return delegate().createDirectories(path);
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return delegate().move(source, target, replace);
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return delegate().copy(source, target, replace);
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return delegate().setLastModified(path, time);
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return delegate().concatenate(sources, target, options);
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return delegate().localFile(path);
	}

	@Override
	public boolean needsUserCredentials() {
		return delegate().needsUserCredentials();
	}

	@Override
	public Mono<Void> checkHealth() {
		return delegate().checkHealth();
	}

	@Override
	public void close() {
		delegate().close();
	}

}
