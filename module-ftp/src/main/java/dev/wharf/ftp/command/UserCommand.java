package dev.wharf.ftp.command;

import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;

/**
 * {@code USER}: remembers the name for {@code PASS}. Every name gets the same {@code 331}, so names cannot be
 * probed (RFC 2577 section 7); there is no anonymous login.
 */
final class UserCommand extends WharfCommand {

	@Override
	void execute(FtpIoSession session, FtpRequest request) {
		session.resetState();
		String name = request.getArgument();
		if (name == null) {
			reply(session, 501, "A user name is required.");
			return;
		}
		if (session.isLoggedIn()) {
			reply(session, 530, "Already logged in; the user cannot be changed.");
			return;
		}
		session.setUserArgument(name);
		reply(session, 331, "User name okay, need password.");
	}

}
