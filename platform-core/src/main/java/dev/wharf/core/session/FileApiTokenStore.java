package dev.wharf.core.session;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.config.StateFile;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * API tokens in one file in the state folder, one token per line, only their digests.
 * Lookups answer from a snapshot in memory; changes re-read the file, apply the change
 * and replace the file atomically (so replicas sharing the folder do not lose each
 * other's tokens), and the file is re-read when another process changed it, checked every
 * {@code refresh}. File access runs on a given bounded scheduler. Thread-safe.
 */
public final class FileApiTokenStore implements ApiTokenStore, AutoCloseable {

	/** The file's name in the state folder. */
	public static final String FILE_NAME = "api-tokens";

	private static final String HEADER = "# Wharf API tokens: id, user, SHA-256 of the token, created, expires (ms since 1970, 0 = never), label.\n"
			+ "# Tokens themselves are never stored. Delete a line to revoke a token.\n";

	private static final Log logger = LogFactory.getLog(FileApiTokenStore.class);

	private final StateFile<Snapshot> file;

	/**
	 * Loads the file (if it exists) and starts watching it.
	 * @param file the tokens file
	 * @param io where file access runs; owned (and disposed) by this store
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public FileApiTokenStore(Path file, Scheduler io, Duration refresh) {
		this.file = new StateFile<>(file, HEADER, lines -> read(file, lines), io, refresh);
	}

	@Override
	public Mono<ApiToken> find(String digest) {
		ApiToken token = this.file.current().byDigest().get(digest);
		return (token != null) ? Mono.just(token) : Mono.empty();
	}

	@Override
	public Flux<ApiToken> list(String user) {
		return Flux
			.defer(() -> Flux.fromIterable(this.file.current().tokens()).filter(token -> token.user().equals(user)));
	}

	@Override
	public Mono<Void> add(ApiToken token) {
		return this.file.change(current -> {
			List<ApiToken> changed = new ArrayList<>(current.tokens());
			changed.add(token);
			return format(changed);
		}).then();
	}

	@Override
	public Mono<Boolean> remove(String user, String id) {
		return this.file
			.change(current -> format(
					current.tokens().stream().filter(t -> !(t.user().equals(user) && t.id().equals(id))).toList()))
			.map(change -> change.before().tokens().size() != change.after().tokens().size());
	}

	private static Snapshot read(Path file, List<String> lines) {
		List<ApiToken> tokens = new ArrayList<>();
		Map<String, ApiToken> byDigest = new HashMap<>();
		for (String line : lines) {
			ApiToken token = parse(line);
			if (token == null) {
				logger.warn(file + " holds a line that is not a token; it is ignored");
				continue;
			}
			tokens.add(token);
			byDigest.put(token.digest(), token);
		}
		return new Snapshot(List.copyOf(tokens), Map.copyOf(byDigest));
	}

	private static @Nullable ApiToken parse(String line) {
		String[] fields = line.split("\t", 6);
		if (fields.length != 6) {
			return null;
		}
		try {
			long expires = Long.parseLong(fields[4]);
			return new ApiToken(fields[0], fields[1], fields[5], fields[2],
					Instant.ofEpochMilli(Long.parseLong(fields[3])),
					(expires == 0) ? null : Instant.ofEpochMilli(expires));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static List<String> format(List<ApiToken> tokens) {
		List<String> lines = new ArrayList<>(tokens.size());
		for (ApiToken token : tokens) {
			Instant expires = token.expires();
			lines.add(token.id() + '\t' + token.user() + '\t' + token.digest() + '\t' + token.created().toEpochMilli()
					+ '\t' + ((expires != null) ? expires.toEpochMilli() : 0) + '\t' + token.label());
		}
		return lines;
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.file.close();
	}

	private record Snapshot(List<ApiToken> tokens, Map<String, ApiToken> byDigest) {
	}

}
