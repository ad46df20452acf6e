package dev.wharf.ftp.command;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.wharf.core.concurrent.Disconnects;
import dev.wharf.ftp.data.TransferInterruptedException;
import dev.wharf.ftp.session.AsyncOperation;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * A command's work as a {@link Mono} of its final reply, run without holding a command
 * thread. The reply is written when the work completed, including its clean-up (a data
 * connection is closed before {@code 226}). An abortable operation that {@code ABOR} or a
 * closed control connection stops writes nothing: the caller replies for it.
 */
final class ReplyingOperation extends AsyncOperation {

	private static final Log logger = LogFactory.getLog(ReplyingOperation.class);

	private final FtpSession session;

	private final SessionContext context;

	private final boolean abortable;

	private final AtomicReference<@Nullable Disposable> subscription = new AtomicReference<>();

	private ReplyingOperation(FtpSession session, boolean abortable) {
		this.session = session;
		this.context = session.context();
		this.abortable = abortable;
	}

	/**
	 * Starts the work; the session's next commands wait until it replied.
	 * @param session the session
	 * @param abortable whether {@code ABOR} may stop it
	 * @param work emits the reply, once
	 * @param onError the reply for a failure
	 */
	static void start(FtpSession session, boolean abortable, Mono<Reply> work, Function<Throwable, Reply> onError) {
		start(session, abortable, operation -> work, onError);
	}

	/**
	 * Starts work that writes replies of its own before the final one, through
	 * {@link AsyncOperation#whileRunning}.
	 * @param session the session
	 * @param abortable whether {@code ABOR} may stop it
	 * @param work makes the work, emitting the final reply once, for the operation that
	 * runs it
	 * @param onError the reply for a failure
	 */
	static void start(FtpSession session, boolean abortable, Function<AsyncOperation, Mono<Reply>> work,
			Function<Throwable, Reply> onError) {
		ReplyingOperation operation = new ReplyingOperation(session, abortable);
		if (!operation.context.begin(operation)) {
			// ABOR arrived before the transfer began: nothing starts, and the ABOR,
			// queued next, answers 226.
			operation.context.data().closeDataConnection();
			session.reply(Replies.transferAborted());
			return;
		}
		AtomicReference<@Nullable Reply> reply = new AtomicReference<>();
		Disposable running = work.apply(operation).subscribe(reply::set, error -> {
			if (TransferInterruptedException.in(error) != null) {
				// The client or the network ended the transfer: one line, the stack trace
				// says nothing more.
				logger.debug("FTP transfer ended early: " + Disconnects.describe(error));
			}
			else {
				logger.debug("FTP command failed", error);
			}
			operation.complete(onError.apply(error));
		}, () -> {
			Reply result = reply.get();
			operation.complete((result != null) ? result : Reply.of(451, "Local error in processing."));
		});
		operation.subscription.set(running);
		if (operation.hasEnded() && !running.isDisposed() && operation.abortable) {
			running.dispose();
		}
	}

	@Override
	public boolean isAbortable() {
		return this.abortable;
	}

	private void complete(Reply reply) {
		if (finish()) {
			this.session.reply(reply);
			this.context.ended(this);
		}
	}

	@Override
	protected void stop() {
		Disposable running = this.subscription.get();
		if (running != null) {
			running.dispose();
		}
	}

}
