package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.storage.AccessDeniedException;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.ContextView;

/**
 * The connection pools of one mount: a single one for the mount's own login, or one per
 * user for passthrough (at most {@code maxUsers}, the least recently used closed first).
 * A background task closes idle connections, and forgets users whose connections are all
 * closed. Thread-safe.
 */
final class SftpPools implements AutoCloseable {

	private final SftpConnector connector;

	private final Duration idleTimeout;

	private final @Nullable SftpConnectionPool fixed;

	private final @Nullable Cache<Credentials, SftpConnectionPool> users;

	private final int poolSize;

	private final Duration wait;

	private final Disposable evictor;

	private SftpPools(SftpConnector connector, @Nullable SftpLogin login, int maxUsers, int poolSize,
			Duration idleTimeout, Duration wait, Scheduler io) {
		this.connector = connector;
		this.poolSize = poolSize;
		this.idleTimeout = idleTimeout;
		this.wait = wait;
		if (login != null) {
			this.fixed = new SftpConnectionPool("mount '" + connector.mount() + "'", poolSize,
					() -> connector.open(login), wait);
			this.users = null;
		}
		else {
			this.fixed = null;
			// Removed pools close on the thread that removes them, which is always one of
			// the mount's I/O threads.
			this.users = Caffeine.newBuilder()
				.maximumSize(maxUsers)
				.executor(Runnable::run)
				.<Credentials, SftpConnectionPool>removalListener((credentials, pool, cause) -> {
					if (pool != null) {
						pool.closeWhenIdle();
					}
				})
				.build();
		}
		long period = Math.min(Math.max(idleTimeout.toMillis() / 4, 250), 30_000);
		this.evictor = io.schedulePeriodically(this::evictIdle, period, period, TimeUnit.MILLISECONDS);
	}

	/**
	 * Pools for a mount that logs in with its own credentials.
	 * @param connector opens connections
	 * @param login the mount's login
	 * @param poolSize most connections
	 * @param idleTimeout how long a connection may stay unused
	 * @param wait how long an operation waits for a connection another one is opening
	 * @param io the mount's I/O scheduler, for the idle check
	 * @return the pools
	 */
	static SftpPools fixed(SftpConnector connector, SftpLogin login, int poolSize, Duration idleTimeout, Duration wait,
			Scheduler io) {
		return new SftpPools(connector, login, 1, poolSize, idleTimeout, wait, io);
	}

	/**
	 * Pools for a mount that logs in as each user.
	 * @param connector opens connections
	 * @param maxUsers most users with connections at once
	 * @param poolSize most connections per user
	 * @param idleTimeout how long a connection may stay unused
	 * @param wait how long an operation waits for a connection another one is opening
	 * @param io the mount's I/O scheduler, for the idle check
	 * @return the pools
	 */
	static SftpPools passthrough(SftpConnector connector, int maxUsers, int poolSize, Duration idleTimeout,
			Duration wait, Scheduler io) {
		return new SftpPools(connector, null, maxUsers, poolSize, idleTimeout, wait, io);
	}

	/** Whether each user logs in as themselves. */
	boolean isPassthrough() {
		return this.fixed == null;
	}

	SftpConnector connector() {
		return this.connector;
	}

	/** The pool for an operation's login. */
	private SftpConnectionPool pool(ContextView context) {
		if (this.fixed != null) {
			return this.fixed;
		}
		Credentials credentials = Credentials.from(context)
			.orElseThrow(() -> new AccessDeniedException("Mount '" + this.connector.mount()
					+ "' logs in to its SFTP server as each user, and this request carries no user login"));
		return userPools().get(credentials,
				key -> new SftpConnectionPool("mount '" + this.connector.mount() + "', user '" + key.username() + "'",
						this.poolSize, () -> this.connector.open(SftpLogin.of(key)), this.wait));
	}

	/**
	 * Takes a connection for an operation. Called on the mount's I/O threads only.
	 * @param context the operation's Reactor context, which holds the user's credentials
	 * for passthrough
	 * @return the lease
	 * @throws AccessDeniedException if the mount is passthrough and the context holds no
	 * credentials
	 * @throws dev.wharf.core.storage.StorageException if no connection can be opened
	 */
	SftpConnectionPool.Lease acquire(ContextView context) throws IOException {
		// A user's pool may be closed by eviction between the look-up and the use; the
		// next look-up makes a new one.
		for (int attempt = 0; attempt < 3; attempt++) {
			SftpConnectionPool.Lease lease = pool(context).tryAcquire();
			if (lease != null) {
				return lease;
			}
		}
		return pool(context).acquire();
	}

	/** Closes idle connections and forgets users without any. */
	void evictIdle() {
		if (this.fixed != null) {
			this.fixed.evictIdle(this.idleTimeout);
			return;
		}
		Cache<Credentials, SftpConnectionPool> users = userPools();
		List<Credentials> idle = new ArrayList<>();
		for (Map.Entry<Credentials, SftpConnectionPool> user : users.asMap().entrySet()) {
			if (user.getValue().evictIdle(this.idleTimeout)) {
				idle.add(user.getKey());
			}
		}
		users.invalidateAll(idle);
		users.cleanUp();
	}

	/** How many connections are open or opening, over every login. */
	int connections() {
		return all().stream().mapToInt(SftpConnectionPool::size).sum();
	}

	/** How many users have a pool (passthrough). */
	long users() {
		return (this.users != null) ? this.users.estimatedSize() : 0;
	}

	private List<SftpConnectionPool> all() {
		return (this.fixed != null) ? List.of(this.fixed) : List.copyOf(userPools().asMap().values());
	}

	/**
	 * The per-user pools of a passthrough mount, for where {@link #fixed} is
	 * {@code null}.
	 */
	private Cache<Credentials, SftpConnectionPool> userPools() {
		// The constructor sets exactly one of the two.
		return Objects.requireNonNull(this.users, "A mount with fixed credentials has no per-user pools");
	}

	/** Closes every connection, also those in use. */
	@Override
	public void close() {
		this.evictor.dispose();
		if (this.fixed != null) {
			this.fixed.close();
		}
		else {
			Cache<Credentials, SftpConnectionPool> users = userPools();
			users.asMap().values().forEach(SftpConnectionPool::close);
			users.invalidateAll();
			users.cleanUp();
		}
	}

}
