package dev.wharf.core.session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * API tokens in one file in the state folder, one token per line, only their digests. Lookups answer from
 * a snapshot in memory; changes re-read the file, apply the change and replace the file atomically (so
 * replicas sharing the folder do not lose each other's tokens), and the file is re-read when another
 * process changed it, checked every {@code refresh}. File access runs on a given bounded scheduler.
 * Thread-safe.
 */
public final class FileApiTokenStore implements ApiTokenStore, AutoCloseable {

	/** The file's name in the state folder. */
	public static final String FILE_NAME = "api-tokens";

	private static final String HEADER = "# Wharf API tokens: id, user, SHA-256 of the token, created, expires (ms since 1970, 0 = never), label.\n"
			+ "# Tokens themselves are never stored. Delete a line to revoke a token.\n";

	private static final Log logger = LogFactory.getLog(FileApiTokenStore.class);

	private final Path file;

	private final Scheduler io;

	private final Object writeLock = new Object();

	private final Disposable refresher;

	private volatile Snapshot snapshot;

	/**
	 * Loads the file (if it exists) and starts watching it.
	 * @param file the tokens file
	 * @param io where file access runs; owned (and disposed) by this store
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public FileApiTokenStore(Path file, Scheduler io, Duration refresh) {
		this.file = file;
		this.io = io;
		this.snapshot = load();
		this.refresher = io.schedulePeriodically(this::refreshQuietly, refresh.toMillis(), refresh.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	@Override
	public Mono<ApiToken> find(String digest) {
		ApiToken token = this.snapshot.byDigest().get(digest);
		return (token != null) ? Mono.just(token) : Mono.empty();
	}

	@Override
	public Flux<ApiToken> list(String user) {
		return Flux.defer(() -> Flux.fromIterable(this.snapshot.tokens()).filter(token -> token.user().equals(user)));
	}

	@Override
	public Mono<Void> add(ApiToken token) {
		return change(tokens -> {
			List<ApiToken> changed = new ArrayList<>(tokens);
			changed.add(token);
			return changed;
		}).then();
	}

	@Override
	public Mono<Boolean> remove(String user, String id) {
		return change(tokens -> tokens.stream().filter(t -> !(t.user().equals(user) && t.id().equals(id))).toList())
			.map(result -> result.before() != result.after());
	}

	private Mono<Change> change(UnaryOperator<List<ApiToken>> operation) {
		return Mono.fromCallable(() -> {
			synchronized (this.writeLock) {
				Snapshot current = load();
				List<ApiToken> changed = operation.apply(current.tokens());
				write(changed);
				this.snapshot = load();
				return new Change(current.tokens().size(), changed.size());
			}
		}).subscribeOn(this.io);
	}

	/** Re-reads the file if another process changed it. */
	void refresh() {
		Snapshot current = this.snapshot;
		if (!current.stamp().equals(stamp())) {
			synchronized (this.writeLock) {
				this.snapshot = load();
			}
		}
	}

	private void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not re-read " + this.file + "; keeping the API tokens read before: " + ex.getMessage());
		}
	}

	private Snapshot load() {
		String stamp = stamp();
		List<String> lines;
		try {
			lines = Files.readAllLines(this.file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return new Snapshot(List.of(), Map.of(), stamp);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + this.file, ex);
		}
		List<ApiToken> tokens = new ArrayList<>();
		Map<String, ApiToken> byDigest = new HashMap<>();
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			ApiToken token = parse(line);
			if (token == null) {
				logger.warn(this.file + " line " + (i + 1) + " is not a token; it is ignored");
				continue;
			}
			tokens.add(token);
			byDigest.put(token.digest(), token);
		}
		return new Snapshot(List.copyOf(tokens), Map.copyOf(byDigest), stamp);
	}

	private static @Nullable ApiToken parse(String line) {
		String[] fields = line.split("\t", 6);
		if (fields.length != 6) {
			return null;
		}
		try {
			long expires = Long.parseLong(fields[4]);
			return new ApiToken(fields[0], fields[1], fields[5], fields[2], Instant.ofEpochMilli(Long.parseLong(fields[3])),
					(expires == 0) ? null : Instant.ofEpochMilli(expires));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private void write(List<ApiToken> tokens) throws IOException {
		StringBuilder text = new StringBuilder(HEADER);
		for (ApiToken token : tokens) {
			Instant expires = token.expires();
			text.append(token.id()).append('\t').append(token.user()).append('\t').append(token.digest()).append('\t')
				.append(token.created().toEpochMilli()).append('\t').append((expires != null) ? expires.toEpochMilli() : 0)
				.append('\t').append(token.label()).append('\n');
		}
		Path folder = this.file.toAbsolutePath().getParent();
		if (folder == null) {
			throw new IOException("The API token file is not in a folder: " + this.file);
		}
		Files.createDirectories(folder);
		Path temp = folder.resolve("." + FILE_NAME + "-" + UUID.randomUUID());
		try {
			Files.writeString(temp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
					StandardOpenOption.SYNC);
			try {
				Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
			}
			catch (UnsupportedOperationException ex) {
				// Not a POSIX file system: the file holds only digests anyway.
			}
			Files.move(temp, this.file, StandardCopyOption.ATOMIC_MOVE);
		}
		finally {
			Files.deleteIfExists(temp);
		}
	}

	private String stamp() {
		try {
			BasicFileAttributes attributes = Files.readAttributes(this.file, BasicFileAttributes.class);
			return attributes.lastModifiedTime().toMillis() + ":" + attributes.size() + ":" + attributes.fileKey();
		}
		catch (IOException ex) {
			return "missing";
		}
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.refresher.dispose();
		this.io.dispose();
	}

	private record Snapshot(List<ApiToken> tokens, Map<String, ApiToken> byDigest, String stamp) {
	}

	private record Change(int before, int after) {
	}

}
