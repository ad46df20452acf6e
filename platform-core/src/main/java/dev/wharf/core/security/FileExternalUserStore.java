package dev.wharf.core.security;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import dev.wharf.core.config.StateFile;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * External users in one file in the state folder, one user per line: name, source, when
 * last seen, groups. Lookups answer from a snapshot in memory; changes re-read the file,
 * apply the change and replace the file atomically (so replicas sharing the folder do not
 * lose each other's users), and the file is re-read when another process changed it,
 * checked every {@code refresh}. File access runs on a given bounded scheduler.
 * Thread-safe.
 */
public final class FileExternalUserStore implements ExternalUserStore, AutoCloseable {

	/** The file's name in the state folder. */
	public static final String FILE_NAME = "external-users";

	private static final String HEADER = "# Wharf's users from LDAP or OIDC: name, source, last seen (ms since 1970), groups (URL-encoded).\n"
			+ "# Rights come from wharf.security.directory.rules. Delete a line to forget a user until the next sign-in.\n";

	private static final Log logger = LogFactory.getLog(FileExternalUserStore.class);

	private final StateFile<Map<String, ExternalUser>> file;

	/**
	 * Loads the file (if it exists) and starts watching it.
	 * @param file the file
	 * @param io where file access runs; owned (and disposed) by this store
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public FileExternalUserStore(Path file, Scheduler io, Duration refresh) {
		this.file = new StateFile<>(file, HEADER, lines -> read(file, lines), io, refresh);
	}

	@Override
	public Optional<ExternalUser> find(String name) {
		return Optional.ofNullable(this.file.current().get(name));
	}

	@Override
	public Mono<Void> save(ExternalUser user) {
		return change(users -> users.put(user.name(), user));
	}

	@Override
	public Mono<Void> remove(String name) {
		return change(users -> users.remove(name));
	}

	private Mono<Void> change(Consumer<Map<String, ExternalUser>> operation) {
		return this.file.change(current -> {
			Map<String, ExternalUser> changed = new HashMap<>(current);
			operation.accept(changed);
			return changed.values().stream().map(ExternalUser::toLine).toList();
		}).then();
	}

	private static Map<String, ExternalUser> read(Path file, List<String> lines) {
		Map<String, ExternalUser> users = new HashMap<>();
		for (String line : lines) {
			ExternalUser.fromLine(line)
				.ifPresentOrElse(user -> users.put(user.name(), user),
						() -> logger.warn(file + " holds a line that is not a user; it is ignored"));
		}
		return Map.copyOf(users);
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.file.close();
	}

}
