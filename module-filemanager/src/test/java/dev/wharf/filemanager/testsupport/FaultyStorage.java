package dev.wharf.filemanager.testsupport;

import java.time.Duration;
import java.util.Set;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.StorageProvider;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A memory storage whose disk "fails" for some files: reading a file whose name starts with
 * {@code unreadable} fails with an I/O error (at once, or after the first bytes for names starting with
 * {@code unreadable-late}, as a disk that fails part-way). Root can read any local file, so a real unreadable file cannot be made in CI.
 */
final class FaultyStorage implements Storage {

	private final MemoryStorage delegate;

	private FaultyStorage(MemoryStorage delegate) {
		this.delegate = delegate;
	}

	static StorageProvider provider() {
		return new StorageProvider() {

			@Override
			public String type() {
				return "faulty";
			}

			@Override
			public Storage create(dev.wharf.core.storage.mount.MountDefinition definition) {
				return new FaultyStorage(new MemoryStorage(definition.name(), 16 << 20));
			}

		};
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
		if (path.name().startsWith("unreadable-late")) {
			return this.delegate.read(path, ByteRange.of(range.offset(), 3))
				.concatWith(Mono.delay(Duration.ofMillis(200))
					.then(Mono.error(new StorageIoException("I/O error on " + path, null))));
		}
		if (path.name().startsWith("unreadable")) {
			return Flux.error(new StorageIoException("I/O error on " + path, null));
		}
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
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return this.delegate.move(source, target, replace);
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return this.delegate.copy(source, target, replace);
	}

}
