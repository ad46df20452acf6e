package dev.wharf.core.share;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.config.StateFile;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Share links in one file in the state folder, one share per line ({@link ShareLines}),
 * readable by its owner only. Lookups answer from a snapshot in memory; every change (a
 * download counted included) re-reads the file, applies itself and replaces the file
 * atomically ({@link StateFile}), so shares survive restarts and a crash never leaves
 * half a file. File access runs on a given bounded scheduler. Thread-safe.
 */
public final class FileShareStore implements ShareStore, AutoCloseable {

	/** The file's name in the state folder. */
	public static final String FILE_NAME = "shares";

	private static final String HEADER = "# Wharf share links: id, creator, mount, path, rights, created, expires (ms since 1970, 0 = never),\n"
			+ "# maximum downloads (0 = no limit), downloads, password hash. Delete a line to revoke a link.\n";

	private static final Log logger = LogFactory.getLog(FileShareStore.class);

	private final StateFile<Map<String, Share>> file;

	/**
	 * Loads the file (if it exists) and starts watching it.
	 * @param file the shares file
	 * @param io where file access runs; owned (and disposed) by this store
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public FileShareStore(Path file, Scheduler io, Duration refresh) {
		this.file = new StateFile<>(file, HEADER, lines -> read(file, lines), io, refresh);
	}

	@Override
	public Mono<Share> find(String id) {
		return Mono.justOrEmpty(this.file.current().get(id));
	}

	@Override
	public Flux<Share> list(String creator) {
		return Flux.defer(() -> Flux.fromIterable(this.file.current().values())
			.filter(share -> share.creator().equals(creator))
			.sort(Comparator.comparing(Share::created)));
	}

	@Override
	public Mono<Void> put(Share share) {
		return this.file.change(current -> {
			Map<String, Share> changed = new LinkedHashMap<>(current);
			Share before = current.get(share.id());
			changed.put(share.id(), share.withDownloads((before != null) ? before.downloads() : 0));
			return format(changed);
		}).then();
	}

	@Override
	public Mono<Boolean> remove(String creator, String id) {
		return this.file.change(current -> {
			Map<String, Share> changed = new LinkedHashMap<>(current);
			Share before = current.get(id);
			if (before != null && before.creator().equals(creator)) {
				changed.remove(id);
			}
			return format(changed);
		}).map(change -> change.before().size() != change.after().size());
	}

	@Override
	public Mono<Boolean> countDownload(String id) {
		return this.file.change(current -> {
			Map<String, Share> changed = new LinkedHashMap<>(current);
			Share share = current.get(id);
			if (share != null && !share.isUsedUp()) {
				changed.put(id, share.withDownloads(share.downloads() + 1));
			}
			return format(changed);
		}).map(change -> {
			Share before = change.before().get(id);
			Share after = change.after().get(id);
			return before != null && after != null && after.downloads() > before.downloads();
		});
	}

	private static Map<String, Share> read(Path file, List<String> lines) {
		Map<String, Share> shares = new LinkedHashMap<>();
		for (String line : lines) {
			Share share = ShareLines.parse(line);
			if (share == null) {
				logger.warn(file + " holds a line that is not a share; it is ignored");
				continue;
			}
			shares.put(share.id(), share);
		}
		return Map.copyOf(shares);
	}

	private static List<String> format(Map<String, Share> shares) {
		List<String> lines = new ArrayList<>(shares.size());
		for (Share share : shares.values()) {
			lines.add(ShareLines.format(share));
		}
		return lines;
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.file.close();
	}

}
