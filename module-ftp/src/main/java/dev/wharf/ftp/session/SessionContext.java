package dev.wharf.ftp.session;

import java.util.ArrayDeque;
import java.util.Queue;

import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.mina.core.session.IoSession;
import org.jspecify.annotations.Nullable;

/**
 * What Wharf keeps for one control connection besides Apache FtpServer's own attributes: the commands waiting
 * while an {@link AsyncOperation} runs, the running operation, and the count of failed logins.
 *
 * <p>Commands of one session run one at a time and in order; this class is the lock and queue that makes it
 * so. Thread-safe.
 */
public final class SessionContext {

	private static final String ATTRIBUTE = SessionContext.class.getName();

	/** Most commands a client may send ahead of the replies; more close the connection. */
	public static final int MAX_PENDING = 64;

	private final SessionDataConnection data;

	private final Queue<FtpRequest> pending = new ArrayDeque<>();

	private final Runnable resume;

	private boolean draining;

	private @Nullable AsyncOperation active;

	private int failedLogins;

	private volatile boolean extendedPassiveOnly;

	private volatile boolean closed;

	private SessionContext(SessionDataConnection data, Runnable resume) {
		this.data = data;
		this.resume = resume;
	}

	/**
	 * Attaches a context to a new control connection.
	 * @param session the connection
	 * @param data its data connection set-up
	 * @param resume schedules {@link #next()} calls on a command thread once the session may go on
	 * @return the context
	 */
	public static SessionContext attach(IoSession session, SessionDataConnection data, Runnable resume) {
		SessionContext context = new SessionContext(data, resume);
		session.setAttribute(ATTRIBUTE, context);
		return context;
	}

	/**
	 * The context of a control connection.
	 * @param session the connection
	 * @return its context
	 */
	public static SessionContext of(IoSession session) {
		SessionContext context = find(session);
		if (context == null) {
			throw new IllegalStateException("No Wharf session context");
		}
		return context;
	}

	/**
	 * The context of a control connection, if it has one (connections refused at once have none).
	 * @param session the connection
	 * @return its context, or {@code null}
	 */
	public static @Nullable SessionContext find(IoSession session) {
		return (SessionContext) session.getAttribute(ATTRIBUTE);
	}

	/** The data connection set-up. */
	public SessionDataConnection data() {
		return this.data;
	}

	/**
	 * Queues a command.
	 * @param request the command
	 * @return {@code true} if the caller must start draining the queue on a command thread; {@code false} if
	 * it was queued behind running work
	 * @throws IllegalStateException if too many commands are waiting
	 */
	public synchronized boolean enqueue(FtpRequest request) {
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
	 * @return the command, or {@code null} when the queue is empty or an operation runs (draining stops)
	 */
	public synchronized @Nullable FtpRequest next() {
		FtpRequest request = (this.active == null && !this.closed) ? this.pending.poll() : null;
		if (request == null) {
			this.draining = false;
		}
		return request;
	}

	/**
	 * The command {@link #next()} would return, left in the queue; for the thread that drains it.
	 * @return the command, or {@code null} when the queue is empty or an operation runs
	 */
	public synchronized @Nullable FtpRequest peekNext() {
		return (this.active == null && !this.closed) ? this.pending.peek() : null;
	}

	/**
	 * Records that the running command goes on asynchronously; the session's next commands wait for it.
	 * @param operation the operation
	 */
	public synchronized void begin(AsyncOperation operation) {
		this.active = operation;
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

	/** Records {@code EPSV ALL}: from now on only {@code EPSV} sets up data connections (RFC 2428). */
	public void extendedPassiveOnly() {
		this.extendedPassiveOnly = true;
	}

	/** Whether {@code EPSV ALL} was sent. */
	public boolean isExtendedPassiveOnly() {
		return this.extendedPassiveOnly;
	}

	/** Marks the connection closed: the queue is dropped and a running operation stopped. */
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
