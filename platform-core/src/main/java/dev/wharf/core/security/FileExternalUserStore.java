package dev.wharf.core.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import dev.wharf.core.config.StateFile;
import dev.wharf.core.security.ExternalUser.Source;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * External users in one file in the state folder, one user per line: name, source, when last seen, groups.
 * Lookups answer from a snapshot in memory; changes re-read the file, apply the change and replace the file
 * atomically (so replicas sharing the folder do not lose each other's users), and the file is re-read when
 * another process changed it, checked every {@code refresh}. File access runs on a given bounded scheduler.
 * Thread-safe.
 */
public final class FileExternalUserStore implements ExternalUserStore, AutoCloseable {

	/** The file's name in the state folder. */
	public static final String FILE_NAME = "external-users";

	private static final String HEADER = "# Wharf's users from LDAP or OIDC: name, source, last seen (ms since 1970), groups (URL-encoded).\n"
			+ "# Rights come from wharf.security.directory.rules. Delete a line to forget a user until the next sign-in.\n";

	private static final Log logger = LogFactory.getLog(FileExternalUserStore.class);

	private final StateFile file;

	private final Scheduler io;

	private final Object writeLock = new Object();

	private final Disposable refresher;

	private volatile Snapshot snapshot;

	/**
	 * Loads the file (if it exists) and starts watching it.
	 * @param file the file
	 * @param io where file access runs; owned (and disposed) by this store
	 * @param refresh how often to look for changes made by other processes
	 * @throws UncheckedIOException if the file exists but cannot be read
	 */
	public FileExternalUserStore(Path file, Scheduler io, Duration refresh) {
		this.file = new StateFile(file, HEADER);
		this.io = io;
		this.snapshot = load();
		this.refresher = io.schedulePeriodically(this::refreshQuietly, refresh.toMillis(), refresh.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	@Override
	public Optional<ExternalUser> find(String name) {
		return Optional.ofNullable(this.snapshot.users().get(name));
	}

	@Override
	public Mono<Void> save(ExternalUser user) {
		return change(users -> {
			users.put(user.name(), user);
			return users;
		});
	}

	@Override
	public Mono<Void> remove(String name) {
		return change(users -> {
			users.remove(name);
			return users;
		});
	}

	private Mono<Void> change(UnaryOperator<Map<String, ExternalUser>> operation) {
		return Mono.<Void>fromRunnable(() -> {
			synchronized (this.writeLock) {
				Map<String, ExternalUser> changed = operation.apply(new HashMap<>(load().users()));
				List<String> lines = new ArrayList<>(changed.size());
				changed.values().forEach(user -> lines.add(format(user)));
				try {
					this.file.write(lines);
				}
				catch (IOException ex) {
					throw new UncheckedIOException("Cannot write " + this.file.path(), ex);
				}
				this.snapshot = load();
			}
		}).subscribeOn(this.io);
	}

	/** Re-reads the file if another process changed it. */
	void refresh() {
		if (!this.snapshot.stamp().equals(this.file.stamp())) {
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
			logger.warn("Could not re-read " + this.file.path() + "; keeping the users read before: " + ex.getMessage());
		}
	}

	private Snapshot load() {
		StateFile.Content content = this.file.read();
		Map<String, ExternalUser> users = new HashMap<>();
		List<String> lines = content.lines();
		for (int i = 0; i < lines.size(); i++) {
			if (!StateFile.isEntry(lines.get(i))) {
				continue;
			}
			ExternalUser user = parse(lines.get(i));
			if (user == null) {
				logger.warn(this.file.path() + " line " + (i + 1) + " is not a user; it is ignored");
				continue;
			}
			users.put(user.name(), user);
		}
		return new Snapshot(Map.copyOf(users), content.stamp());
	}

	static String format(ExternalUser user) {
		StringBuilder line = new StringBuilder(64).append(user.name())
			.append('\t')
			.append(user.source().configName())
			.append('\t')
			.append(user.seen().toEpochMilli());
		for (String group : user.groups()) {
			line.append('\t').append(URLEncoder.encode(group, StandardCharsets.UTF_8));
		}
		return line.toString();
	}

	static @Nullable ExternalUser parse(String line) {
		String[] fields = line.split("\t", -1);
		if (fields.length < 3 || !User.isValidName(fields[0])) {
			return null;
		}
		Optional<Source> source = Source.fromConfigName(fields[1]);
		if (source.isEmpty()) {
			return null;
		}
		try {
			Set<String> groups = new LinkedHashSet<>();
			for (int i = 3; i < fields.length; i++) {
				groups.add(URLDecoder.decode(fields[i], StandardCharsets.UTF_8));
			}
			return new ExternalUser(fields[0], source.get(), groups, Instant.ofEpochMilli(Long.parseLong(fields[2])));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/** Stops watching the file and the file-access thread. */
	@Override
	public void close() {
		this.refresher.dispose();
		this.io.dispose();
	}

	private record Snapshot(Map<String, ExternalUser> users, String stamp) {
	}

}
