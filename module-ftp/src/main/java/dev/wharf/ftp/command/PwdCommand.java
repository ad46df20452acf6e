package dev.wharf.ftp.command;

import dev.wharf.ftp.session.CommandLine;

/** {@code PWD}: the working folder, quoted as RFC 959 asks (quotes inside it doubled). */
final class PwdCommand extends WharfCommand {

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		session.reply(257,
				Replies.quoted(session.files().workingDirectoryPath().toString()) + " is the current directory.");
	}

}
