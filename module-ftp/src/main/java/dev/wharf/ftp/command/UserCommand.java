package dev.wharf.ftp.command;

import dev.wharf.ftp.session.CommandLine;

/**
 * {@code USER}: remembers the name for {@code PASS}. Every name gets the same
 * {@code 331}, so names cannot be probed (RFC 2577 section 7); there is no anonymous
 * login.
 */
final class UserCommand extends WharfCommand {

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		String name = request.argument();
		if (name == null) {
			session.reply(501, "A user name is required.");
			return;
		}
		if (session.isLoggedIn()) {
			session.reply(530, "Already logged in; the user cannot be changed.");
			return;
		}
		session.setUserArgument(name);
		session.reply(331, "User name okay, need password.");
	}

}
