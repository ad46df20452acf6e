package dev.wharf.filemanager.testsupport;

import java.time.Duration;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.StorageProvider;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A memory storage whose disk "fails" for some files: reading a file whose name starts
 * with {@code unreadable} fails with an I/O error (at once, or after the first bytes for
 * names starting with {@code unreadable-late}, as a disk that fails part-way). Root can
 * read any local file, so a real unreadable file cannot be made in CI.
 */
final class FaultyStorage extends ForwardingStorage {

	private FaultyStorage(MemoryStorage delegate) {
		super(delegate);
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
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		if (path.name().startsWith("unreadable-late")) {
			return delegate().read(path, ByteRange.of(range.offset(), 3))
				.concatWith(Mono.delay(Duration.ofMillis(200))
					.then(Mono.error(new StorageIoException("I/O error on " + path, null))));
		}
		if (path.name().startsWith("unreadable")) {
			return Flux.error(new StorageIoException("I/O error on " + path, null));
		}
		return delegate().read(path, range);
	}

}
