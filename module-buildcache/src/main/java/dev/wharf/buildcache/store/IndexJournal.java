package dev.wharf.buildcache.store;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps an {@link LruIndex} across restarts: the entries themselves are found by listing
 * the cache's folder (the folder is the truth: an entry deleted or added by hand while
 * Wharf was down is seen), and a reserved journal file beside them, rewritten atomically
 * from time to time and at shutdown, remembers when each was last used. Entries the
 * journal does not know count as last used when they were written.
 */
final class IndexJournal {

	/**
	 * The journal's name in the cache's folder; reserved, so never listed or reachable by
	 * clients.
	 */
	static final String NAME = ".wharf-index";

	private final Storage storage;

	private final StoragePath folder;

	private final StoragePath journal;

	IndexJournal(Storage storage, StoragePath folder) {
		this.storage = storage;
		this.folder = folder;
		this.journal = folder.resolve(StoragePath.reserved(NAME));
	}

	/**
	 * Finds every entry under the folder, with its last use.
	 * @return the entries, in no particular order
	 */
	Mono<List<LruIndex.Snapshot>> load() {
		return lastUses().flatMap(lastUses -> this.storage.list(this.folder)
			.expand(entry -> entry.isDirectory() ? this.storage.list(entry.path()) : Flux.empty())
			.filter(entry -> entry.type() == EntryType.FILE)
			.map(entry -> snapshot(entry, lastUses))
			.collectList());
	}

	private static LruIndex.Snapshot snapshot(FileEntry entry, Map<StoragePath, Long> lastUses) {
		long written = entry.lastModified().toEpochMilli();
		return new LruIndex.Snapshot(entry.path(), entry.size(),
				Math.max(written, lastUses.getOrDefault(entry.path(), 0L)));
	}

	private Mono<Map<StoragePath, Long>> lastUses() {
		return DataBufferUtils.join(this.storage.read(this.journal, ByteRange.all())).map(buffer -> {
			try {
				return parse(buffer.toString(StandardCharsets.UTF_8));
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}).onErrorResume(NotFoundException.class, missing -> Mono.just(Map.of()));
	}

	private static Map<StoragePath, Long> parse(String text) {
		Map<StoragePath, Long> lastUses = new HashMap<>();
		for (String line : text.split("\n")) {
			int tab = line.indexOf('\t');
			if (tab <= 0) {
				continue;
			}
			try {
				lastUses.put(StoragePath.reserved(line.substring(tab + 1)), Long.parseLong(line.substring(0, tab)));
			}
			catch (NumberFormatException | InvalidStoragePathException ex) {
				// A damaged line costs one entry its last-use time, nothing more.
			}
		}
		return lastUses;
	}

	/**
	 * Saves the last use of every entry, replacing the previous journal atomically.
	 * @param entries the index's entries
	 * @return completes when saved
	 */
	Mono<Void> save(List<LruIndex.Snapshot> entries) {
		return Mono.defer(() -> {
			StringBuilder text = new StringBuilder(entries.size() * 96);
			for (LruIndex.Snapshot entry : entries) {
				text.append(entry.lastUsed()).append('\t').append(entry.path()).append('\n');
			}
			byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
			Flux<DataBuffer> content = Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes)));
			return this.storage.write(this.journal, content, WriteOptions.replace().withExpectedLength(bytes.length))
				.then();
		});
	}

}
