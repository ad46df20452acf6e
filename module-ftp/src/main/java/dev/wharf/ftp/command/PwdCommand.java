package dev.wharf.ftp.command;

import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;

/** {@code PWD}: the working folder, quoted as RFC 959 asks (quotes inside it doubled). */
final class PwdCommand extends WharfCommand {

	@Override
	void execute(FtpIoSession session, FtpRequest request) {
		session.resetState();
		reply(session, 257, Replies.quoted(view(session).workingDirectoryPath().toString()) + " is the current directory.");
	}

}
