package dev.wharf.core.testsupport;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A storage that hands every call to another one, for tests that change one or two operations (a fault, a
 * counter, a missing capability) and must keep the rest exactly as the real backend does. Default methods of
 * {@link Storage} are forwarded too, so the delegate's own copy, zero-copy and health check are what runs.
 * Thread-safe if the delegate is.
 */
public class ForwardingStorage implements Storage {

	private final Storage delegate;

	public ForwardingStorage(Storage delegate) {
		this.delegate = delegate;
	}

	/** The storage calls are handed to. */
	protected Storage delegate() {
		return this.delegate;
	}

	@Override
	public Set<Capability> capabilities() {
		return this.delegate.capabilities();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return this.delegate.stat(path);
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return this.delegate.list(directory);
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return this.delegate.read(path, range);
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return this.delegate.write(path, content, options);
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return this.delegate.delete(path, recursive);
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return this.delegate.createDirectory(path);
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return this.delegate.createDirectories(path);
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return this.delegate.move(source, target, replace);
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return this.delegate.copy(source, target, replace);
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return this.delegate.setLastModified(path, time);
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return this.delegate.concatenate(sources, target, options);
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return this.delegate.localFile(path);
	}

	@Override
	public boolean needsUserCredentials() {
		return this.delegate.needsUserCredentials();
	}

	@Override
	public Mono<Void> checkHealth() {
		return this.delegate.checkHealth();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
