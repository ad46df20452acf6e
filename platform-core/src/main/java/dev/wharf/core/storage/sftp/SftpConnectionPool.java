package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.wharf.core.storage.BackendUnavailableException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The SSH connections of one login, at most {@code maxSize}, shared by concurrent
 * operations: an operation takes the least busy connection, and a new one is opened only
 * while every open connection is busy and the pool has room. Connections that broke are
 * dropped (so the next operation reconnects), and connections idle for too long are
 * closed by {@link #evictIdle}.
 *
 * <p>
 * {@link #acquire} blocks (to connect); it is called on the mount's I/O threads only.
 * Thread-safe.
 */
final class SftpConnectionPool implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(SftpConnectionPool.class);

	/** Most temporary files remembered for deletion after their connection broke. */
	private static final int MAX_ORPHANS = 1000;

	private static final long FAILURE_LOG_INTERVAL = TimeUnit.MINUTES.toNanos(1);

	private final String description;

	private final int maxSize;

	private final Supplier<SftpConnection> opener;

	private final long waitMillis;

	private final List<Slot> slots = new ArrayList<>();

	private final Queue<String> orphans = new ConcurrentLinkedQueue<>();

	private final AtomicInteger opened = new AtomicInteger();

	private long lastActive = System.nanoTime();

	private long lastFailureLogged;

	private boolean failing;

	private boolean closed;

	/**
	 * @param description who the pool is for, for logs, such as {@code mount 'remote'}
	 * @param maxSize most connections
	 * @param opener opens one connection, failing with a
	 * {@link dev.wharf.core.storage.StorageException}
	 * @param wait how long an operation waits for a connection that another one is
	 * opening
	 */
	SftpConnectionPool(String description, int maxSize, Supplier<SftpConnection> opener, Duration wait) {
		this.description = description;
		this.maxSize = maxSize;
		this.opener = opener;
		this.waitMillis = wait.toMillis();
	}

	/**
	 * Takes a connection for one operation, opening one if needed.
	 * @return the lease, to close when the operation ends
	 * @throws dev.wharf.core.storage.StorageException if no connection can be opened
	 * @throws IOException if waiting for a connection is interrupted
	 */
	Lease acquire() throws IOException {
		Lease lease = tryAcquire();
		if (lease == null) {
			throw new BackendUnavailableException("The connections of " + this.description + " are closed");
		}
		return lease;
	}

	/**
	 * Like {@link #acquire()}, but gives {@code null} if the pool was closed.
	 * @return the lease, or {@code null}
	 */
	@Nullable Lease tryAcquire() throws IOException {
		Slot slot;
		boolean open = false;
		List<SftpConnection> dropped = new ArrayList<>();
		synchronized (this) {
			if (this.closed) {
				return null;
			}
			this.lastActive = System.nanoTime();
			dropUnusable(dropped);
			slot = leastBusy();
			if (slot == null || (slot.inFlight > 0 && this.slots.size() < this.maxSize)) {
				slot = new Slot();
				this.slots.add(slot);
				open = true;
			}
			slot.inFlight++;
		}
		dropped.forEach(SftpConnection::close);
		if (open) {
			openInto(slot);
		}
		try {
			return new Lease(slot, slot.ready.get(this.waitMillis, TimeUnit.MILLISECONDS));
		}
		catch (ExecutionException ex) {
			release(slot);
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime
					: new BackendUnavailableException("Connecting for " + this.description + " failed", ex.getCause());
		}
		catch (TimeoutException ex) {
			release(slot);
			throw new BackendUnavailableException("Timed out waiting for a connection of " + this.description, ex);
		}
		catch (InterruptedException ex) {
			release(slot);
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("Interrupted waiting for a connection");
		}
	}

	private void openInto(Slot slot) {
		try {
			SftpConnection connection = this.opener.get();
			this.opened.incrementAndGet();
			slot.ready.complete(connection);
			recovered();
			deleteOrphans(connection);
		}
		catch (RuntimeException | Error ex) {
			synchronized (this) {
				this.slots.remove(slot);
			}
			slot.ready.completeExceptionally(ex);
			if (ex instanceof Error error) {
				throw error;
			}
			logFailure((RuntimeException) ex);
		}
	}

	private @Nullable Slot leastBusy() {
		Slot best = null;
		for (Slot slot : this.slots) {
			if (best == null || slot.inFlight < best.inFlight) {
				best = slot;
			}
		}
		return best;
	}

	/**
	 * Removes connections that broke; closes those no operation uses any more. Called
	 * holding the lock.
	 */
	private void dropUnusable(List<SftpConnection> dropped) {
		this.slots.removeIf(slot -> {
			SftpConnection connection = slot.connectionIfOpen();
			if (connection == null || connection.isUsable()) {
				return false;
			}
			slot.removed = true;
			if (slot.inFlight == 0) {
				dropped.add(connection);
			}
			return true;
		});
	}

	private void release(Slot slot) {
		SftpConnection close = null;
		synchronized (this) {
			slot.inFlight--;
			slot.lastUsed = System.nanoTime();
			this.lastActive = slot.lastUsed;
			if (slot.removed && slot.inFlight == 0) {
				close = slot.connectionIfOpen();
			}
		}
		if (close != null) {
			close.close();
		}
	}

	private void broken(Slot slot, SftpConnection connection) {
		connection.markBroken();
		synchronized (this) {
			if (!slot.removed) {
				slot.removed = true;
				this.slots.remove(slot);
			}
		}
	}

	/**
	 * Closes connections that no operation has used for a while, and drops broken ones.
	 * @param idleTimeout how long a connection may stay unused
	 * @return whether the pool is now empty and has been idle for that long
	 */
	boolean evictIdle(Duration idleTimeout) {
		long now = System.nanoTime();
		long limit = idleTimeout.toNanos();
		List<SftpConnection> closing = new ArrayList<>();
		SftpConnection spare = null;
		boolean idle;
		synchronized (this) {
			dropUnusable(closing);
			this.slots.removeIf(slot -> {
				SftpConnection connection = slot.connectionIfOpen();
				if (connection != null && slot.inFlight == 0 && now - slot.lastUsed >= limit) {
					slot.removed = true;
					closing.add(connection);
					return true;
				}
				return false;
			});
			for (Slot slot : this.slots) {
				if (slot.connectionIfOpen() != null) {
					spare = slot.connectionIfOpen();
				}
			}
			idle = this.slots.isEmpty() && now - this.lastActive >= limit;
		}
		closing.forEach(SftpConnection::close);
		if (spare != null) {
			deleteOrphans(spare);
		}
		return idle;
	}

	/**
	 * Remembers a temporary file that could not be deleted because its connection broke;
	 * it is deleted through the next connection that works.
	 * @param remote the file's server path
	 */
	void deleteLater(String remote) {
		if (this.orphans.size() < MAX_ORPHANS) {
			this.orphans.add(remote);
		}
		else {
			logger.warn("Too many temporary files to delete later for " + this.description + "; one is left behind");
		}
	}

	private void deleteOrphans(SftpConnection connection) {
		for (String remote = this.orphans.poll(); remote != null; remote = this.orphans.poll()) {
			try {
				connection.engine().remove(remote);
			}
			catch (IOException ex) {
				if (SftpErrors.isConnectionFailure(ex)) {
					this.orphans.add(remote);
					return;
				}
				// Already gone, or the server refuses: nothing more to try.
			}
		}
	}

	private synchronized void recovered() {
		if (this.failing) {
			this.failing = false;
			logger.info("Connected to the SFTP server again for " + this.description);
		}
	}

	private void logFailure(RuntimeException error) {
		long now = System.nanoTime();
		synchronized (this) {
			if (this.failing && now - this.lastFailureLogged < FAILURE_LOG_INTERVAL) {
				return;
			}
			this.failing = true;
			this.lastFailureLogged = now;
		}
		Throwable cause = (error.getCause() != null) ? error.getCause() : error;
		logger.warn("Cannot connect for " + this.description + ": " + error.getMessage() + " (" + cause + ")");
	}

	/** How many connections are open or opening. */
	synchronized int size() {
		return this.slots.size();
	}

	/** How many connections this pool has opened in all. */
	int opened() {
		return this.opened.get();
	}

	/**
	 * Closes every connection now, failing the operations still using one. Idempotent.
	 */
	@Override
	public void close() {
		close(true);
	}

	/**
	 * Closes idle connections now and busy ones when their operations end. Idempotent.
	 */
	void closeWhenIdle() {
		close(false);
	}

	private void close(boolean busyToo) {
		List<SftpConnection> closing = new ArrayList<>();
		synchronized (this) {
			this.closed = true;
			for (Slot slot : this.slots) {
				slot.removed = true;
				SftpConnection connection = slot.connectionIfOpen();
				if (connection != null && (busyToo || slot.inFlight == 0)) {
					closing.add(connection);
				}
			}
			this.slots.clear();
		}
		closing.forEach(SftpConnection::close);
	}

	/**
	 * Something done with a leased connection.
	 *
	 * @param <T> what it gives
	 */
	@FunctionalInterface
	interface Operation<T> {

		@Nullable T apply(Lease lease) throws IOException;

	}

	/**
	 * One pooled connection, possibly still being opened. Fields other than {@code ready}
	 * are guarded by the pool.
	 */
	private static final class Slot {

		final CompletableFuture<SftpConnection> ready = new CompletableFuture<>();

		int inFlight;

		long lastUsed = System.nanoTime();

		boolean removed;

		@Nullable SftpConnection connectionIfOpen() {
			return (this.ready.isDone() && !this.ready.isCompletedExceptionally()) ? this.ready.join() : null;
		}

	}

	/**
	 * One operation's use of a connection. Closing it hands the connection back;
	 * {@link #failed} drops the connection first if the failure was the connection's.
	 */
	final class Lease implements AutoCloseable {

		private final Slot slot;

		private final SftpConnection connection;

		private boolean released;

		private Lease(Slot slot, SftpConnection connection) {
			this.slot = slot;
			this.connection = connection;
		}

		SftpConnection connection() {
			return this.connection;
		}

		/** The pool this lease is from. */
		SftpConnectionPool pool() {
			return SftpConnectionPool.this;
		}

		/**
		 * Notes that an operation on this connection failed.
		 * @param error the failure; if it is the connection's, the connection is dropped
		 */
		void failed(Throwable error) {
			if (SftpErrors.isConnectionFailure(error)) {
				broken(this.slot, this.connection);
			}
		}

		/**
		 * Runs an operation, dropping the connection if it fails because of the
		 * connection.
		 * @param <T> what the operation gives
		 * @param operation the operation
		 * @return what it gave
		 */
		<T> @Nullable T run(Operation<T> operation) throws IOException {
			try {
				return operation.apply(this);
			}
			catch (IOException | RuntimeException ex) {
				failed(ex);
				throw ex;
			}
		}

		/**
		 * Runs an operation that keeps this lease when it succeeds (to open a file), and
		 * closes it when it fails.
		 * @param <T> what the operation gives
		 * @param operation the operation
		 * @return what it gave
		 */
		<T> T open(Operation<T> operation) throws IOException {
			try {
				T opened = run(operation);
				if (opened == null) {
					throw new IllegalStateException("Opening gave nothing");
				}
				return opened;
			}
			catch (IOException | RuntimeException ex) {
				close();
				throw ex;
			}
		}

		@Override
		public synchronized void close() {
			if (!this.released) {
				this.released = true;
				release(this.slot);
			}
		}

	}

}
