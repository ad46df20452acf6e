package dev.wharf.core.storage.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.wharf.core.concurrent.NamedThreads;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import net.spy.memcached.CASValue;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionFactoryBuilder.Locator;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * spymemcached's futures as {@link Mono}s that never block a caller. An operation is
 * queued without waiting (a full queue fails at once), its completion arrives on this
 * mount's own small, named callback pool (never on spymemcached's I/O thread, never on a
 * Netty event loop), and a timer fails it when memcached does not answer in time. Servers
 * are chosen by consistent (ketama) hashing; while a server is down its operations are
 * cancelled at once ({@link FailureMode#Cancel}: fail fast), and spymemcached reconnects
 * in the background with a bounded back-off.
 *
 * <p>
 * Thread-safe. {@link #close()} shuts the client and both pools down.
 */
final class MemcachedOperations implements AutoCloseable {

	/** Continuous time-outs after which spymemcached drops and re-opens a connection. */
	private static final int TIMEOUTS_BEFORE_RECONNECT = 10;

	private static final Log logger = LogFactory.getLog(MemcachedOperations.class);

	static {
		// spymemcached logs to standard error through its own logger unless told
		// otherwise.
		if (System.getProperty("net.spy.log.LoggerImpl") == null) {
			System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
		}
	}

	private final String mount;

	private final MemcachedClient client;

	private final ExecutorService callbacks;

	private final ScheduledExecutorService timer;

	private final long timeoutMillis;

	private final int expirationSeconds;

	private MemcachedOperations(String mount, MemcachedClient client, ExecutorService callbacks,
			ScheduledExecutorService timer, Duration timeout, Duration expiration) {
		this.mount = mount;
		this.client = client;
		this.callbacks = callbacks;
		this.timer = timer;
		this.timeoutMillis = timeout.toMillis();
		this.expirationSeconds = (int) expiration.toSeconds();
	}

	/**
	 * Creates the client; connects in the background and waits at most
	 * {@code connectTimeout} for every server to answer, without failing if some do not.
	 * @param mount the mount's name, for thread names and messages
	 * @param servers the resolved servers
	 * @param properties timeouts and expiry
	 * @return the operations
	 */
	static MemcachedOperations connect(String mount, List<InetSocketAddress> servers,
			MemcachedStorageProperties properties) {
		int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
		// Callbacks only hand a result to Reactor; a full queue runs them on
		// spymemcached's I/O thread
		// rather than losing one (spymemcached would throw the rejection on its I/O
		// thread).
		ThreadPoolExecutor callbacks = NamedThreads.pool("wharf-memcached-" + mount, threads, 100_000,
				new ThreadPoolExecutor.CallerRunsPolicy());
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
				NamedThreads.daemon("wharf-memcached-timer-" + mount));
		timer.setRemoveOnCancelPolicy(true);
		ConnectionFactory factory = new ConnectionFactoryBuilder().setProtocol(Protocol.BINARY)
			.setLocatorType(Locator.CONSISTENT)
			.setHashAlg(DefaultHashAlgorithm.KETAMA_HASH)
			.setFailureMode(FailureMode.Cancel)
			.setOpTimeout(properties.operationTimeout().toMillis())
			.setOpQueueMaxBlockTime(0)
			.setTimeoutExceptionThreshold(TIMEOUTS_BEFORE_RECONNECT)
			.setMaxReconnectDelay(properties.maxReconnectDelay().toSeconds())
			.setListenerExecutorService(callbacks)
			.setUseNagleAlgorithm(false)
			.setDaemon(true)
			.build();
		MemcachedClient client;
		try {
			client = new MemcachedClient(factory, servers);
		}
		catch (IOException | RuntimeException ex) {
			callbacks.shutdownNow();
			timer.shutdownNow();
			throw new BackendUnavailableException("Mount '" + mount + "': cannot start the memcached client", ex);
		}
		MemcachedOperations operations = new MemcachedOperations(mount, client, callbacks, timer,
				properties.operationTimeout(), properties.expiration());
		operations.awaitServers(properties.connectTimeout());
		return operations;
	}

	private void awaitServers(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!this.client.getUnavailableServers().isEmpty() && System.nanoTime() < deadline) {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		Collection<SocketAddress> down = this.client.getUnavailableServers();
		if (!down.isEmpty()) {
			logger.warn("Mount '" + this.mount + "': memcached " + describe(down)
					+ " not reachable yet; Wharf keeps trying in the background");
		}
	}

	/**
	 * The servers that are not connected now.
	 * @return their addresses, empty if every server is up
	 */
	Collection<SocketAddress> unavailableServers() {
		return this.client.getUnavailableServers();
	}

	/**
	 * Keys that land on each server, one per server, for health checks: memcached closing
	 * an idle connection goes unnoticed until a request is sent on it.
	 * @param base the start of every key
	 * @return one key per server
	 */
	List<String> keyPerServer(String base) {
		NodeLocator locator = this.client.getNodeLocator();
		Map<SocketAddress, String> keys = new LinkedHashMap<>();
		int servers = locator.getAll().size();
		for (int i = 0; keys.size() < servers && i < 100_000; i++) {
			String key = base + "-" + i;
			keys.putIfAbsent(locator.getPrimary(key).getSocketAddress(), key);
		}
		return List.copyOf(keys.values());
	}

	/**
	 * Gets an item.
	 * @param key the key
	 * @return its value, or empty if memcached has no such item
	 */
	Mono<byte[]> get(String key) {
		return fetch(() -> this.client.asyncGet(key, BytesTranscoder.INSTANCE));
	}

	/**
	 * Gets an item with its compare-and-swap token, for {@link #delete(String, long)}.
	 * @param key the key
	 * @return its value and token, or empty if memcached has no such item
	 */
	Mono<CASValue<byte[]>> gets(String key) {
		return fetch(() -> this.client.asyncGets(key, BytesTranscoder.INSTANCE));
	}

	private <T> Mono<T> fetch(Supplier<Future<T>> operation) {
		return call(operation, (future, sink) -> {
			OperationStatus status = status(future);
			if (status.isSuccess()) {
				try {
					T value = future.get();
					if (value != null) {
						sink.success(value);
					}
					else {
						sink.success();
					}
				}
				catch (Exception ex) {
					sink.error(new StorageIoException("Mount '" + this.mount + "': memcached read failed", ex));
				}
			}
			else if (status.getStatusCode() == StatusCode.ERR_NOT_FOUND) {
				sink.success();
			}
			else {
				sink.error(failure(status));
			}
		});
	}

	/**
	 * Stores an item, replacing any.
	 * @param key the key
	 * @param value the value
	 * @return completes once memcached stored it
	 */
	Mono<Void> set(String key, byte[] value) {
		return store(() -> this.client.set(key, this.expirationSeconds, value, BytesTranscoder.INSTANCE))
			.flatMap(stored -> stored ? Mono.empty() : Mono
				.error(new StorageIoException("Mount '" + this.mount + "': memcached did not store an item")));
	}

	/**
	 * Stores an item unless one exists, atomically.
	 * @param key the key
	 * @param value the value
	 * @return whether it was stored; {@code false} if the key exists
	 */
	Mono<Boolean> add(String key, byte[] value) {
		return store(() -> this.client.add(key, this.expirationSeconds, value, BytesTranscoder.INSTANCE));
	}

	/**
	 * Deletes an item.
	 * @param key the key
	 * @return whether it existed
	 */
	Mono<Boolean> delete(String key) {
		return store(() -> this.client.delete(key));
	}

	/**
	 * Deletes an item unless it changed since it was read.
	 * @param key the key
	 * @param cas the token {@link #gets} returned
	 * @return whether it was deleted; {@code false} if it is gone or was replaced
	 * meanwhile
	 */
	Mono<Boolean> delete(String key, long cas) {
		return store(() -> this.client.delete(key, cas));
	}

	private Mono<Boolean> store(Supplier<OperationFuture<Boolean>> operation) {
		return call(operation, (future, sink) -> {
			OperationStatus status = status(future);
			if (status.isSuccess()) {
				sink.success(true);
			}
			else if (status.getStatusCode() == StatusCode.ERR_EXISTS
					|| status.getStatusCode() == StatusCode.ERR_NOT_FOUND
					|| status.getStatusCode() == StatusCode.ERR_NOT_STORED) {
				sink.success(false);
			}
			else {
				sink.error(failure(status));
			}
		});
	}

	/**
	 * Starts an operation on subscription and settles the sink from its future once, by
	 * whichever comes first: its completion (on the callback pool), the time-out, or
	 * cancellation.
	 */
	private <F extends Future<?>, T> Mono<T> call(Supplier<? extends F> start, BiConsumer<F, MonoSink<T>> complete) {
		return Mono.create(sink -> {
			F future;
			try {
				future = start.get();
			}
			catch (RuntimeException ex) {
				sink.error(notQueued(ex));
				return;
			}
			Settled settled = watch(sink, future);
			Runnable completed = () -> {
				if (settled.settle()) {
					complete.accept(future, sink);
				}
			};
			if (future instanceof GetFuture<?> get) {
				get.addListener(done -> completed.run());
			}
			else {
				((OperationFuture<?>) future).addListener(done -> completed.run());
			}
		});
	}

	/**
	 * Fails the sink when memcached does not answer in time (telling spymemcached, so
	 * that a connection that keeps timing out is re-opened), and cancels the operation
	 * when the subscriber goes away.
	 */
	private Settled watch(MonoSink<?> sink, Future<?> future) {
		Settled settled = new Settled();
		ScheduledFuture<?> timeout = this.timer.schedule(() -> {
			if (!settled.settle()) {
				return;
			}
			try {
				// A zero wait returns at once; spymemcached then counts the time-out and
				// marks the operation.
				future.get(0, TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException | RuntimeException | java.util.concurrent.ExecutionException ex) {
				// Expected: the point was the bookkeeping.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			sink.error(new BackendUnavailableException(
					"Mount '" + this.mount + "': memcached did not answer within " + this.timeoutMillis + " ms"));
		}, this.timeoutMillis, TimeUnit.MILLISECONDS);
		sink.onDispose(() -> timeout.cancel(false));
		sink.onCancel(() -> {
			if (settled.settle()) {
				future.cancel(false);
			}
		});
		return settled;
	}

	private static OperationStatus status(Future<?> future) {
		if (future.isCancelled()) {
			return new OperationStatus(false, "cancelled", StatusCode.CANCELLED);
		}
		OperationStatus status = (future instanceof GetFuture<?> get) ? get.getStatus()
				: ((OperationFuture<?>) future).getStatus();
		return (status != null) ? status : new OperationStatus(false, "no status", StatusCode.ERR_CLIENT);
	}

	private StorageException failure(OperationStatus status) {
		return switch (status.getStatusCode()) {
			case ERR_2BIG, ERR_NO_MEM -> new QuotaExceededException(
					"Mount '" + this.mount + "': memcached refused the item (" + status.getMessage() + ")");
			case CANCELLED, TIMEDOUT, ERR_TEMP_FAIL, ERR_BUSY, INTERRUPTED ->
				new BackendUnavailableException("Mount '" + this.mount + "': memcached is unavailable");
			default ->
				new StorageIoException("Mount '" + this.mount + "': memcached failed (" + status.getMessage() + ")");
		};
	}

	private StorageException notQueued(RuntimeException ex) {
		return new BackendUnavailableException("Mount '" + this.mount + "': memcached is unavailable or overloaded",
				ex);
	}

	/**
	 * Describes servers for messages.
	 * @param servers addresses
	 * @return them as {@code host:port}, comma separated
	 */
	static String describe(Collection<SocketAddress> servers) {
		return servers.stream()
			.map(String::valueOf)
			.map(s -> s.startsWith("/") ? s.substring(1) : s)
			.collect(Collectors.joining(", "));
	}

	@Override
	public void close() {
		try {
			this.client.shutdown(2, TimeUnit.SECONDS);
		}
		finally {
			this.callbacks.shutdown();
			this.timer.shutdownNow();
		}
	}

	/**
	 * Lets exactly one of completion, time-out and cancellation decide an operation's
	 * outcome.
	 */
	private static final class Settled {

		private final AtomicBoolean done = new AtomicBoolean();

		boolean settle() {
			return this.done.compareAndSet(false, true);
		}

	}

}
