package dev.wharf.filemanager.testsupport;

import java.util.Set;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A mount that "logs in to its backend as the user", as an SFTP mount in passthrough mode
 * will: every call needs the caller's {@link Credentials} in its Reactor context (with
 * the password {@value #PASSWORD}) and fails with access denied otherwise, wherever the
 * call is subscribed.
 */
final class PassthroughStorage implements Storage {

	/** The only password this backend accepts. */
	static final String PASSWORD = "alice-password";

	private final MemoryStorage delegate;

	private PassthroughStorage(MemoryStorage delegate) {
		this.delegate = delegate;
	}

	static StorageProvider provider() {
		return new StorageProvider() {

			@Override
			public String type() {
				return "passthrough";
			}

			@Override
			public Storage create(MountDefinition definition) {
				return new PassthroughStorage(new MemoryStorage(definition.name(), 16 << 20));
			}

		};
	}

	private <T> Mono<T> loggedIn(Mono<T> operation) {
		return Credentials.current()
			.filter(credentials -> credentials.password().equals(PASSWORD))
			.switchIfEmpty(Mono.error(() -> new AccessDeniedException("The backend refused the login")))
			.then(operation);
	}

	private <T> Flux<T> loggedIn(Flux<T> operation) {
		return loggedIn(Mono.empty()).thenMany(operation);
	}

	@Override
	public boolean needsUserCredentials() {
		return true;
	}

	@Override
	public Set<Capability> capabilities() {
		return this.delegate.capabilities();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return loggedIn(this.delegate.stat(path));
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return loggedIn(this.delegate.list(directory));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return loggedIn(this.delegate.read(path, range));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return loggedIn(this.delegate.write(path, content, options));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return loggedIn(this.delegate.delete(path, recursive));
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return loggedIn(this.delegate.createDirectory(path));
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return loggedIn(this.delegate.move(source, target, replace));
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return loggedIn(this.delegate.copy(source, target, replace));
	}

	@Override
	public Mono<Void> checkHealth() {
		return Mono.empty();
	}

}
