package dev.wharf.ftp.command;

import dev.wharf.ftp.session.CommandLine;

/**
 * One FTP command. It runs on a command thread (or, for the few that only change the
 * session's state, on the control connection's I/O thread) and never blocks on the
 * storage or the network: work that waits goes on as a {@link ReplyingOperation}, and the
 * session's next command waits for its reply. Implementations are immutable and shared by
 * every session.
 */
public interface FtpCommand {

	/**
	 * Runs the command.
	 * @param session the session
	 * @param request the command line
	 */
	void execute(FtpSession session, CommandLine request);

}
