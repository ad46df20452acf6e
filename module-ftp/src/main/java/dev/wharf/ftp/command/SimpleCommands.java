package dev.wharf.ftp.command;

import java.io.IOException;
import java.util.Locale;

import dev.wharf.ftp.session.SessionContext;
import org.apache.ftpserver.command.Command;
import org.apache.ftpserver.command.impl.PROT;
import org.apache.ftpserver.ftplet.FtpException;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;

/** Small commands that need no storage: {@code MODE}, {@code PROT}, {@code QUIT}, {@code ALLO}, {@code ABOR}. */
final class SimpleCommands {

	private SimpleCommands() {
	}

	/** {@code MODE}: only stream mode ({@code S}). */
	static final class Mode extends WharfCommand {

		@Override
		void execute(FtpIoSession session, FtpRequest request) {
			session.resetState();
			String argument = request.getArgument();
			if (argument == null) {
				reply(session, 501, "A transfer mode is required.");
			}
			else if (argument.equalsIgnoreCase("S")) {
				reply(session, 200, "Mode set to S.");
			}
			else {
				reply(session, 504, "Only stream mode (S) is supported.");
			}
		}

	}

	/** {@code PROT}: Apache FtpServer's, except that clear data is refused where TLS is required. */
	static final class Prot implements Command {

		private final Command delegate = new PROT();

		private final boolean required;

		Prot(boolean required) {
			this.required = required;
		}

		@Override
		public void execute(FtpIoSession session, FtpServerContext context, FtpRequest request)
				throws IOException, FtpException {
			String argument = request.getArgument();
			if (this.required && argument != null && argument.trim().toUpperCase(Locale.ROOT).equals("C")) {
				session.resetState();
				session.write(Replies.of(534, "Clear data connections are not allowed: use PROT P."));
				return;
			}
			this.delegate.execute(session, context, request);
		}

	}

	/** {@code QUIT}: says goodbye and closes once the reply is out, without waiting on a thread. */
	static final class Quit extends WharfCommand {

		@Override
		void execute(FtpIoSession session, FtpRequest request) {
			session.resetState();
			Replies.send(session, Replies.closing(221, "Goodbye."));
		}

	}

	/** {@code ALLO}: nothing to reserve. */
	static final class Allocate extends WharfCommand {

		@Override
		void execute(FtpIoSession session, FtpRequest request) {
			session.resetState();
			reply(session, 202, "No storage allocation necessary.");
		}

	}

	/**
	 * {@code ABOR} in its turn: after a transfer command it stopped before that began ({@code 226}, the transfer
	 * having answered {@code 426}), or with no transfer to abort. A running transfer is aborted at once, out of turn.
	 */
	static final class Abort extends WharfCommand {

		@Override
		void execute(FtpIoSession session, FtpRequest request) {
			session.resetState();
			SessionContext context = SessionContext.of(session);
			context.data().closeDataConnection();
			if (context.takeAbortedBeforeStart()) {
				session.write(Replies.abortDone());
			}
			else {
				reply(session, 225, "No transfer to abort.");
			}
		}

	}

}
