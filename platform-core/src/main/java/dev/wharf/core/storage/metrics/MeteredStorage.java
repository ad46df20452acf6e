package dev.wharf.core.storage.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.HeldFile;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Wraps a {@link Storage} to record, per mount, how long each operation takes and how it
 * ended ({@code wharf.storage.operations}: tags {@code mount}, {@code type},
 * {@code operation}, {@code outcome}) and how many bytes are read and written
 * ({@code wharf.storage.bytes}: tag {@code direction}).
 */
public final class MeteredStorage extends ForwardingStorage {

	private final MeterRegistry registry;

	private final String mount;

	private final String type;

	private final Counter bytesRead;

	private final Counter bytesWritten;

	private final Operation stat = new Operation("stat");

	private final Operation list = new Operation("list");

	private final Operation read = new Operation("read");

	private final Operation write = new Operation("write");

	private final Operation delete = new Operation("delete");

	private final Operation mkdir = new Operation("mkdir");

	private final Operation mkdirs = new Operation("mkdirs");

	private final Operation move = new Operation("move");

	private final Operation copy = new Operation("copy");

	private final Operation setTime = new Operation("set-time");

	private final Operation concatenate = new Operation("concatenate");

	/**
	 * Wraps a storage.
	 * @param delegate the storage
	 * @param registry where meters go
	 * @param mount the mount's name
	 * @param type the mount's type
	 */
	public MeteredStorage(Storage delegate, MeterRegistry registry, String mount, String type) {
		super(delegate);
		this.registry = registry;
		this.mount = mount;
		this.type = type;
		this.bytesRead = bytes("read");
		this.bytesWritten = bytes("written");
	}

	private Counter bytes(String direction) {
		return Counter.builder("wharf.storage.bytes")
			.description("Bytes read from or written to a mount")
			.baseUnit("bytes")
			.tag("mount", this.mount)
			.tag("type", this.type)
			.tag("direction", direction)
			.register(this.registry);
	}

	/** The wrapped storage. */
	@Override
	public Storage delegate() {
		return super.delegate();
	}

	@Override
	public Mono<FileEntry> stat(StoragePath path) {
		return timed(this.stat, delegate().stat(path));
	}

	@Override
	public @Nullable FileEntry statAtHand(StoragePath path) {
		long start = System.nanoTime();
		FileEntry entry = delegate().statAtHand(path);
		if (entry != null) {
			// Counted as the stat it stands for; one not at hand is counted by the stat
			// that follows.
			this.stat.record("success", start);
		}
		return entry;
	}

	@Override
	public @Nullable HeldFile readAtHand(StoragePath path, long maxSize) {
		long start = System.nanoTime();
		HeldFile file = delegate().readAtHand(path, maxSize);
		if (file != null) {
			// The stat and the read it stands for, so dashboards count the same
			// operations either way.
			this.stat.record("success", start);
			this.read.record("success", start);
			if (file.entry().size() > 0) {
				this.bytesRead.increment(file.entry().size());
			}
		}
		return file;
	}

	@Override
	public Flux<FileEntry> list(StoragePath directory) {
		return timed(this.list, delegate().list(directory));
	}

	@Override
	public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
		return timed(this.read,
				delegate().read(path, range).doOnNext(buffer -> this.bytesRead.increment(buffer.readableByteCount())));
	}

	@Override
	public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
		return timed(this.write, delegate().write(path,
				content.doOnNext(buffer -> this.bytesWritten.increment(buffer.readableByteCount())), options));
	}

	@Override
	public Mono<Void> delete(StoragePath path, boolean recursive) {
		return timed(this.delete, delegate().delete(path, recursive));
	}

	@Override
	public Mono<FileEntry> createDirectory(StoragePath path) {
		return timed(this.mkdir, delegate().createDirectory(path));
	}

	@Override
	public Mono<FileEntry> createDirectories(StoragePath path) {
		return timed(this.mkdirs, delegate().createDirectories(path));
	}

	@Override
	public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
		return timed(this.move, delegate().move(source, target, replace));
	}

	@Override
	public Mono<FileEntry> copy(StoragePath source, StoragePath target, boolean replace) {
		return timed(this.copy, delegate().copy(source, target, replace));
	}

	@Override
	public Mono<FileEntry> setLastModified(StoragePath path, Instant time) {
		return timed(this.setTime, delegate().setLastModified(path, time));
	}

	@Override
	public Mono<FileEntry> concatenate(List<StoragePath> sources, StoragePath target, WriteOptions options) {
		return timed(this.concatenate, delegate().concatenate(sources, target, options));
	}

	@Override
	public String toString() {
		return "Metered" + delegate();
	}

	private <T> Mono<T> timed(Operation operation, Mono<T> mono) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return mono.doOnSuccess(value -> operation.record("success", start))
				.doOnError(error -> operation.record(outcome(error), start))
				.doOnCancel(() -> operation.record("cancelled", start));
		});
	}

	private <T> Flux<T> timed(Operation operation, Flux<T> flux) {
		return Flux.defer(() -> {
			long start = System.nanoTime();
			return flux.doOnComplete(() -> operation.record("success", start))
				.doOnError(error -> operation.record(outcome(error), start))
				.doOnCancel(() -> operation.record("cancelled", start));
		});
	}

	private static String outcome(Throwable error) {
		return (error instanceof StorageException storage) ? storage.kind().name().toLowerCase(Locale.ROOT) : "error";
	}

	/**
	 * One operation's timers, by outcome, made on first use (no string is built per
	 * call).
	 */
	private final class Operation {

		private final String name;

		private final Map<String, Timer> timers = new ConcurrentHashMap<>(4);

		Operation(String name) {
			this.name = name;
		}

		void record(String outcome, long start) {
			this.timers
				.computeIfAbsent(outcome,
						key -> Timer.builder("wharf.storage.operations")
							.description("Storage operations per mount")
							.tag("mount", MeteredStorage.this.mount)
							.tag("type", MeteredStorage.this.type)
							.tag("operation", this.name)
							.tag("outcome", key)
							.register(MeteredStorage.this.registry))
				.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
		}

	}

}
