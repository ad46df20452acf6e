package dev.wharf.ftp.command;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import dev.wharf.ftp.data.DataChannel;
import dev.wharf.ftp.session.AsyncOperation;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionDataConnection;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * What every command that uses a data connection shares: the checks before it
 * ({@code PASV}/{@code PORT} first, {@code PROT P} where TLS is required), the
 * {@code 150} reply, opening and closing the connection, and running the whole transfer
 * as an abortable operation.
 */
final class DataTransfer {

	/** How long {@code 150} waits for the data connection to open. */
	static final Duration ANNOUNCE_GRACE = Duration.ofSeconds(1);

	private final boolean tlsRequired;

	/**
	 * Creates the helper.
	 * @param tlsRequired whether data connections must be encrypted
	 */
	DataTransfer(boolean tlsRequired) {
		this.tlsRequired = tlsRequired;
	}

	/**
	 * Checks that a transfer may start, replying and giving up the set-up if not.
	 * @param session the session
	 * @return whether the transfer may start
	 */
	boolean ready(FtpSession session) {
		SessionDataConnection data = session.context().data();
		if (!data.isReady()) {
			session.reply(Reply.of(503, "Send PORT, EPRT, PASV or EPSV first."));
			return false;
		}
		if (this.tlsRequired && !data.isPendingSecure()) {
			data.closeDataConnection();
			session.reply(Reply.of(522, "Data connections must be encrypted: send PROT P (and PASV again)."));
			return false;
		}
		return true;
	}

	/**
	 * Gives up the data connection set-up of a command that failed before it started.
	 * @param session the session
	 */
	void giveUp(FtpSession session) {
		session.context().data().closeDataConnection();
	}

	/**
	 * Opens the data connection and replies {@code 150}, runs the transfer, closes the
	 * connection (gracefully on success, at once otherwise) and gives the final reply,
	 * without holding a thread. {@code ABOR} or a closed control connection stop it at
	 * any point.
	 * @param session the session
	 * @param preparation checks made before {@code 150}; an emitted reply ends the
	 * command with it, empty goes on
	 * @param opening the text of the {@code 150} reply
	 * @param transfer the transfer over the open connection, emitting the final reply
	 * @param path the path concerned, for error replies
	 */
	void start(FtpSession session, Mono<Reply> preparation, String opening, Function<DataChannel, Mono<Reply>> transfer,
			String path) {
		ReplyingOperation.start(session, true, operation -> whole(session, operation, preparation, opening, transfer),
				error -> Replies.forTransferError(error, path));
	}

	private static Mono<Reply> whole(FtpSession session, AsyncOperation operation, Mono<Reply> preparation,
			String opening, Function<DataChannel, Mono<Reply>> transfer) {
		SessionDataConnection data = session.context().data();
		// A reply or error before the transfer gives up the set-up before the reply goes
		// out: the next command may
		// already set up another one.
		return preparation.doOnNext(refused -> data.closeDataConnection()).switchIfEmpty(Mono.defer(() -> {
			// 150 goes out once the data connection is open (as vsftpd does), so a client
			// that races ahead to its
			// next transfer never finds its passive ports still waiting; a client that
			// connects only after 150
			// gets it after a short grace.
			AtomicBoolean announced = new AtomicBoolean();
			Runnable announce = () -> {
				if (announced.compareAndSet(false, true)) {
					operation.whileRunning(() -> session.reply(Reply.of(150, opening)));
				}
			};
			Disposable grace = Schedulers.parallel()
				.schedule(announce, ANNOUNCE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
			Mono<DataChannel> opened = data.open()
				.doOnNext(channel -> announce.run())
				.doFinally(signal -> grace.dispose())
				.onErrorMap(error -> new Replies.DataConnectionNotOpened(String.valueOf(error.getMessage()), error));
			return Mono.usingWhen(opened, transfer, DataChannel::close, (channel, error) -> abort(channel),
					DataTransfer::abort);
		})).doOnError(error -> data.closeDataConnection());
	}

	private static Mono<Void> abort(DataChannel channel) {
		return Mono.fromRunnable(channel::abort);
	}

}
