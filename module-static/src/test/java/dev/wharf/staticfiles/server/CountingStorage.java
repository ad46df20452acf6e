package dev.wharf.staticfiles.server;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

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
 * A storage that records every path it is asked about, so tests can tell what reached the
 * backend; tests extend it to make a backend fail.
 */
class CountingStorage implements Storage {

	private final Storage delegate;

	private final List<String> calls = new CopyOnWriteArrayList<>();

	CountingStorage(Storage delegate) {
		this.delegate = delegate;
	}

	/** Every call so far, as "operation path". */
	List<String> calls() {
		return this.calls;
	}

	private void record(String operation, StoragePath path) {
		this.calls.add(operation + " " + path);
	}

	@Override
	public Set<Capability> capabilities() {
		return this.delegate.capabilities();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return Mono.defer(() -> {
			record("stat", path);
			return this.delegate.stat(path);
		});
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return Flux.defer(() -> {
			record("list", directory);
			return this.delegate.list(directory);
		});
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return Flux.defer(() -> {
			record("read", path);
			return this.delegate.read(path, range);
		});
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return Mono.defer(() -> {
			record("write", path);
			return this.delegate.write(path, content, options);
		});
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return Mono.defer(() -> {
			record("delete", path);
			return this.delegate.delete(path, recursive);
		});
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return Mono.defer(() -> {
			record("createDirectory", path);
			return this.delegate.createDirectory(path);
		});
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return Mono.defer(() -> {
			record("move", source);
			return this.delegate.move(source, target, replace);
		});
	}

	@Override
	public Mono<Path> localFile(StoragePath path) {
		return Mono.defer(() -> {
			record("localFile", path);
			return this.delegate.localFile(path);
		});
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
