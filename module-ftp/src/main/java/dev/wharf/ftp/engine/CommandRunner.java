package dev.wharf.ftp.engine;

import java.util.Set;
import java.util.concurrent.ExecutorService;

import dev.wharf.ftp.command.Replies;
import dev.wharf.ftp.session.AsyncOperation;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.ftpserver.command.Command;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;
import org.apache.mina.core.session.IoSession;

/**
 * Runs each session's commands in order on a bounded pool of command threads, replacing
 * Apache FtpServer's {@code DefaultFtpHandler} dispatch. Commands arrive on MINA's I/O
 * threads and are only queued there. While a command's asynchronous work runs (a
 * transfer, a password check), the session's next commands wait, except {@code ABOR},
 * which stops a running transfer at once: {@code 426} for the transfer, then {@code 226}.
 * An {@code ABOR} that arrives while a transfer command waits in the queue or is being
 * started stops it too: the transfer never begins, and the replies are the same.
 *
 * <p>
 * A few commands that only change the session's state and never block ({@code USER},
 * {@code PASS}, {@code TYPE}, {@code NOOP} and the like) run on the I/O thread itself
 * when nothing is queued before them: each command handed to a command thread costs two
 * thread wake-ups (there and, for the reply, back), which dominated the time of a login
 * (docs/benchmarks/ftp.md, "The table again, after the upload changes"). {@code PASS}
 * only starts the password check there; a check that is not cached runs on the hashing
 * threads.
 *
 * <p>
 * Before login only {@code USER}, {@code PASS}, {@code AUTH}, {@code PBSZ}, {@code PROT},
 * {@code FEAT}, {@code SYST}, {@code OPTS}, {@code HELP}, {@code NOOP} and {@code QUIT}
 * are accepted; where TLS is required, {@code USER} and {@code PASS} need a secured
 * control connection. Thread-safe.
 */
final class CommandRunner {

	private static final Log logger = LogFactory.getLog(CommandRunner.class);

	private static final Set<String> BEFORE_LOGIN = Set.of("USER", "PASS", "AUTH", "PBSZ", "PROT", "FEAT", "SYST",
			"OPTS", "HELP", "NOOP", "QUIT");

	/** Commands that use a data connection: what {@code ABOR} stops. */
	private static final Set<String> TRANSFERS = Set.of("RETR", "STOR", "STOU", "APPE", "LIST", "NLST", "MLSD");

	/**
	 * Commands that may run on the I/O thread: they touch only the session's state and
	 * write one reply.
	 */
	private static final Set<String> ON_IO_THREAD = Set.of("USER", "PASS", "NOOP", "SYST", "TYPE", "MODE", "STRU",
			"PWD", "FEAT", "OPTS", "HELP");

	private final ExecutorService threads;

	private final boolean tlsRequired;

	private final FtpServerContext context;

	/**
	 * Creates the runner.
	 * @param threads the bounded command threads
	 * @param tlsRequired whether logins need TLS
	 * @param context the server's context
	 */
	CommandRunner(ExecutorService threads, boolean tlsRequired, FtpServerContext context) {
		this.threads = threads;
		this.tlsRequired = tlsRequired;
		this.context = context;
	}

	/**
	 * Takes a command from the I/O thread: queues it, or, for {@code ABOR}, aborts the
	 * running transfer at once or marks the transfer command that waits to start.
	 * @param session the session
	 * @param request the command
	 */
	void received(IoSession session, CommandLine request) {
		SessionContext state = EngineSession.contextOf(session);
		if ("ABOR".equals(request.command()) && abortTransfer(session, state)) {
			return;
		}
		boolean start;
		try {
			start = state.enqueue(request);
		}
		catch (IllegalStateException tooMany) {
			logger.debug("Closing an FTP session that sent too many commands ahead of the replies");
			session.closeNow();
			return;
		}
		if (start) {
			drainOnIoThread(session, state);
		}
	}

	/**
	 * Runs the queued commands here while they may run on the I/O thread, then hands the
	 * rest on.
	 */
	private void drainOnIoThread(IoSession session, SessionContext state) {
		while (true) {
			CommandLine head = state.peekNext();
			if (head != null && !ON_IO_THREAD.contains(head.command())) {
				resume(session);
				return;
			}
			// Empty or an operation runs: null, and draining ends, as a command thread's
			// drain ends.
			CommandLine request = state.next();
			if (request == null) {
				return;
			}
			if (!ON_IO_THREAD.contains(request.command())) {
				// An operation ended between the two calls, and this command had waited
				// for it.
				this.threads.execute(() -> {
					run(new FtpIoSession(session, this.context), request);
					drain(session);
				});
				return;
			}
			run(new FtpIoSession(session, this.context), request);
		}
	}

	/**
	 * Aborts the running transfer and answers for it and the {@code ABOR}; without one, a
	 * transfer command that waits to start is marked and the {@code ABOR} is queued
	 * behind it.
	 * @return whether the {@code ABOR} was answered
	 */
	private boolean abortTransfer(IoSession session, SessionContext state) {
		AsyncOperation running = state.abortTarget(request -> TRANSFERS.contains(request.command()));
		if (running == null || !running.abort()) {
			return false;
		}
		state.data().closeDataConnection();
		EngineSession.write(session, Replies.transferAborted());
		EngineSession.write(session, Replies.abortDone());
		state.ended(running);
		return true;
	}

	/**
	 * Runs the session's queued commands on a command thread, until the queue is empty or
	 * a command goes on asynchronously.
	 * @param session the session
	 */
	void resume(IoSession session) {
		this.threads.execute(() -> drain(session));
	}

	private void drain(IoSession session) {
		SessionContext state = EngineSession.contextOf(session);
		CommandLine request;
		while ((request = state.next()) != null) {
			run(new FtpIoSession(session, this.context), request);
		}
	}

	private void run(FtpIoSession session, CommandLine request) {
		session.updateLastAccessTime();
		String name = request.command();
		if (!session.isLoggedIn() && !BEFORE_LOGIN.contains(name)) {
			EngineSession.write(session, Reply.of(530, "Please log in with USER and PASS first."));
			return;
		}
		if (this.tlsRequired && !session.isSecure() && ("USER".equals(name) || "PASS".equals(name))) {
			EngineSession.write(session, Reply.of(530, "TLS is required: send AUTH TLS first."));
			return;
		}
		SessionContext state = EngineSession.contextOf(session);
		if (state.abortedBeforeStart(request)) {
			session.resetState();
			state.data().closeDataConnection();
			EngineSession.write(session, Replies.transferAborted());
			return;
		}
		Command command = this.context.getCommandFactory().getCommand(name);
		if (command == null) {
			EngineSession.write(session, Reply.of(502,
					"Command " + ((name.length() > 16) ? name.substring(0, 16) + "..." : name) + " not implemented."));
			return;
		}
		try {
			command.execute(session, this.context, new EngineRequest(request));
		}
		catch (Exception | LinkageError ex) {
			logger.warn("FTP command " + name + " failed", ex);
			EngineSession.write(session, Reply.of(451, "Local error in processing."));
		}
	}

}
