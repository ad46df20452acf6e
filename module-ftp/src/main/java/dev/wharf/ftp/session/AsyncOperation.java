package dev.wharf.ftp.session;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A command that goes on after its {@code execute} returned, such as a transfer or a
 * password check, so that no command thread waits for it. While it runs, the session's
 * further commands wait in line; a transfer can be aborted by {@code ABOR}, or when the
 * control connection closes.
 *
 * <p>
 * Exactly one of the ways it can end wins: {@link #finish()} (the operation itself) or
 * {@link #abort()} (from outside); only the winner replies to the client. Thread-safe.
 */
public abstract class AsyncOperation {

	private final AtomicBoolean ended = new AtomicBoolean();

	/**
	 * Whether {@code ABOR} may stop it (transfers), or it must finish by itself (a
	 * password check).
	 */
	public abstract boolean isAbortable();

	/**
	 * Claims the end of the operation for its own completion.
	 * @return whether the caller won and must reply and tell the session
	 */
	protected final boolean finish() {
		synchronized (this) {
			return this.ended.compareAndSet(false, true);
		}
	}

	/**
	 * Stops the operation from outside.
	 * @return whether it was still running (and is now stopped); the caller then replies
	 * for it
	 */
	public final boolean abort() {
		synchronized (this) {
			if (!isAbortable() || !this.ended.compareAndSet(false, true)) {
				return false;
			}
		}
		stop();
		return true;
	}

	/**
	 * Writes an intermediate reply (such as {@code 150}) unless the operation ended. The
	 * operation cannot end meanwhile, so the reply comes before the final one and before
	 * the replies to an {@code ABOR}: a {@code 150} written while an {@code ABOR} was
	 * answered came after its {@code 226}, where the client took it for the reply to its
	 * next command.
	 * @param write writes the reply
	 */
	public final void whileRunning(Runnable write) {
		synchronized (this) {
			if (!this.ended.get()) {
				write.run();
			}
		}
	}

	/** Whether it ended. */
	public final boolean hasEnded() {
		return this.ended.get();
	}

	/** Stops the work: cancels subscriptions, closes connections. Called at most once. */
	protected abstract void stop();

}
