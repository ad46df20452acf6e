package dev.wharf.ftp.command;

import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;

/**
 * Small commands that need no storage: {@code MODE}, {@code QUIT}, {@code ALLO},
 * {@code ABOR}.
 */
final class SimpleCommands {

	private SimpleCommands() {
	}

	/** {@code MODE}: only stream mode ({@code S}). */
	static final class Mode extends WharfCommand {

		@Override
		public void execute(FtpSession session, CommandLine request) {
			session.resetState();
			String argument = request.argument();
			if (argument == null) {
				session.reply(501, "A transfer mode is required.");
			}
			else if (argument.equalsIgnoreCase("S")) {
				session.reply(200, "Mode set to S.");
			}
			else {
				session.reply(504, "Only stream mode (S) is supported.");
			}
		}

	}

	/**
	 * {@code QUIT}: says goodbye and closes once the reply is out, without waiting on a
	 * thread.
	 */
	static final class Quit extends WharfCommand {

		@Override
		public void execute(FtpSession session, CommandLine request) {
			session.resetState();
			session.reply(Reply.closing(221, "Goodbye."));
		}

	}

	/** {@code ALLO}: nothing to reserve. */
	static final class Allocate extends WharfCommand {

		@Override
		public void execute(FtpSession session, CommandLine request) {
			session.resetState();
			session.reply(202, "No storage allocation necessary.");
		}

	}

	/**
	 * {@code ABOR} in its turn: after a transfer command it stopped before that began
	 * ({@code 226}, the transfer having answered {@code 426}), or with no transfer to
	 * abort. A running transfer is aborted at once, out of turn.
	 */
	static final class Abort extends WharfCommand {

		@Override
		public void execute(FtpSession session, CommandLine request) {
			session.resetState();
			SessionContext context = session.context();
			context.data().closeDataConnection();
			if (context.takeAbortedBeforeStart()) {
				session.reply(Replies.abortDone());
			}
			else {
				session.reply(225, "No transfer to abort.");
			}
		}

	}

}
