package dev.wharf.ftp.session;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * What Wharf keeps for one control connection: the commands waiting while an
 * {@link AsyncOperation} runs, the running operation, a transfer command that
 * {@code ABOR} stopped before its transfer began, and the count of failed logins.
 *
 * <p>
 * Commands of one session run one at a time and in order; this class is the lock and
 * queue that makes it so. Thread-safe.
 */
public final class SessionContext {

	/**
	 * Most commands a client may send ahead of the replies; more close the connection.
	 */
	public static final int MAX_PENDING = 64;

	private final SessionDataConnection data;

	private final Queue<CommandLine> pending = new ArrayDeque<>();

	private final Runnable resume;

	private boolean draining;

	private @Nullable AsyncOperation active;

	/** The command last handed out by {@link #next()}, running until the next call. */
	private @Nullable CommandLine running;

	/** A transfer command that {@code ABOR} arrived for before its transfer began. */
	private @Nullable CommandLine abortRequested;

	/**
	 * Whether a transfer was aborted before it began, and the {@code ABOR} that did it
	 * has not answered yet.
	 */
	private boolean abortedBeforeStart;

	private int failedLogins;

	private volatile boolean extendedPassiveOnly;

	private volatile boolean closed;

	/**
	 * Creates the context of a new control connection.
	 * @param data its data connection set-up
	 * @param resume schedules {@link #next()} calls on a command thread once the session
	 * may go on
	 */
	public SessionContext(SessionDataConnection data, Runnable resume) {
		this.data = data;
		this.resume = resume;
	}

	/** The data connection set-up. */
	public SessionDataConnection data() {
		return this.data;
	}

	/**
	 * Queues a command.
	 * @param request the command
	 * @return {@code true} if the caller must start draining the queue on a command
	 * thread; {@code false} if it was queued behind running work
	 * @throws IllegalStateException if too many commands are waiting
	 */
	public synchronized boolean enqueue(CommandLine request) {
		if (this.pending.size() >= MAX_PENDING) {
			throw new IllegalStateException("Too many commands waiting");
		}
		this.pending.add(request);
		if (this.draining || this.active != null) {
			return false;
		}
		this.draining = true;
		return true;
	}

	/**
	 * The next command to run, for the thread that drains the queue.
	 * @return the command, or {@code null} when the queue is empty or an operation runs
	 * (draining stops)
	 */
	public synchronized @Nullable CommandLine next() {
		if (this.running != null && this.running == this.abortRequested) {
			// It ended without starting a transfer (refused, say): the ABOR that follows
			// finds nothing to abort.
			this.abortRequested = null;
		}
		CommandLine request = (this.active == null && !this.closed) ? this.pending.poll() : null;
		this.running = request;
		if (request == null) {
			this.draining = false;
		}
		return request;
	}

	/**
	 * The command {@link #next()} would return, left in the queue; for the thread that
	 * drains it.
	 * @return the command, or {@code null} when the queue is empty or an operation runs
	 */
	public synchronized @Nullable CommandLine peekNext() {
		return (this.active == null && !this.closed) ? this.pending.peek() : null;
	}

	/**
	 * Records that the running command goes on asynchronously; the session's next
	 * commands wait for it.
	 * @param operation the operation
	 * @return {@code false} if {@code ABOR} already stopped this command (see
	 * {@link #abortTarget}): the operation must not start, and the caller answers for the
	 * aborted transfer
	 */
	public synchronized boolean begin(AsyncOperation operation) {
		if (operation.isAbortable() && this.running != null && this.running == this.abortRequested) {
			this.abortRequested = null;
			this.abortedBeforeStart = true;
			return false;
		}
		this.active = operation;
		return true;
	}

	/**
	 * Finds what an {@code ABOR} that just arrived stops. A running operation is returned
	 * for the caller to abort. Without one, the transfer command that waits in the queue
	 * (the last one) or is being started is marked: it will not transfer ({@link #begin}
	 * and {@link #abortedBeforeStart} say so), and the {@code ABOR}, queued behind it,
	 * answers {@code 226}. Waiting behind the transfer it is meant to stop, such an
	 * {@code ABOR} would let the upload of a client that sends {@code STOR} and
	 * {@code ABOR} together and closes the data connection be committed.
	 * @param transfer which commands are transfers
	 * @return the running operation, or {@code null}
	 */
	public synchronized @Nullable AsyncOperation abortTarget(Predicate<CommandLine> transfer) {
		if (this.active != null) {
			return this.active;
		}
		CommandLine target = null;
		for (CommandLine waiting : this.pending) {
			if (transfer.test(waiting)) {
				target = waiting;
			}
		}
		if (target == null && this.running != null && transfer.test(this.running)) {
			target = this.running;
		}
		if (target != null) {
			this.abortRequested = target;
		}
		return null;
	}

	/**
	 * Whether {@code ABOR} stopped this command while it waited in the queue; the caller
	 * then answers for the aborted transfer instead of running it.
	 * @param request the command about to run
	 * @return whether it was aborted
	 */
	public synchronized boolean abortedBeforeStart(CommandLine request) {
		if (request != this.abortRequested) {
			return false;
		}
		this.abortRequested = null;
		this.abortedBeforeStart = true;
		return true;
	}

	/**
	 * For the {@code ABOR} command: whether it stopped a transfer before that began (it
	 * then answers {@code 226}); clears the record.
	 * @return whether a transfer was aborted for it
	 */
	public synchronized boolean takeAbortedBeforeStart() {
		boolean aborted = this.abortedBeforeStart;
		this.abortedBeforeStart = false;
		return aborted;
	}

	/**
	 * Records that an operation ended, and lets waiting commands run.
	 * @param operation the operation that ended
	 */
	public void ended(AsyncOperation operation) {
		boolean schedule;
		synchronized (this) {
			if (this.active != operation) {
				return;
			}
			this.active = null;
			schedule = !this.draining && !this.pending.isEmpty() && !this.closed;
			if (schedule) {
				this.draining = true;
			}
		}
		if (schedule) {
			this.resume.run();
		}
	}

	/** The running operation, or {@code null}. */
	public synchronized @Nullable AsyncOperation active() {
		return this.active;
	}

	/**
	 * Counts a failed login.
	 * @return the failures so far in this session
	 */
	public synchronized int loginFailed() {
		return ++this.failedLogins;
	}

	/**
	 * Records {@code EPSV ALL}: from now on only {@code EPSV} sets up data connections
	 * (RFC 2428).
	 */
	public void extendedPassiveOnly() {
		this.extendedPassiveOnly = true;
	}

	/** Whether {@code EPSV ALL} was sent. */
	public boolean isExtendedPassiveOnly() {
		return this.extendedPassiveOnly;
	}

	/**
	 * Marks the connection closed: the queue is dropped and a running operation stopped.
	 */
	public void close() {
		AsyncOperation running;
		synchronized (this) {
			this.closed = true;
			this.pending.clear();
			running = this.active;
		}
		if (running != null) {
			running.abort();
		}
		this.data.closeDataConnection();
	}

	/** Whether the control connection closed. */
	public boolean isClosed() {
		return this.closed;
	}

}
