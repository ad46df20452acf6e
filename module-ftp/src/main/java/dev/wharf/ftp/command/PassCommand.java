package dev.wharf.ftp.command;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.Credentials;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import dev.wharf.ftp.filesystem.StorageFileSystemFactory;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.FtpUser;
import dev.wharf.ftp.session.Reply;
import reactor.core.publisher.Mono;

/**
 * {@code PASS}: logs in through Wharf's {@link Authenticator}, shared with every
 * protocol: the password is checked off the command threads, failures are throttled per
 * account and per address without sleeping anywhere, and every attempt is audited. The
 * password may also be one of the user's API tokens (for users who sign in through OIDC
 * and have no password). A throttled client, or one whose login cannot be checked now
 * (the directory is down), is told when to retry and disconnected (421); after
 * {@value #MAX_FAILURES} failures in one connection the connection is closed too.
 */
final class PassCommand extends WharfCommand {

	/** Failed logins one connection may make before it is closed. */
	static final int MAX_FAILURES = 3;

	private final Authenticator authenticator;

	private final StorageFileSystemFactory fileSystems;

	private final boolean passthrough;

	/**
	 * Creates the command.
	 * @param authenticator logs users in
	 * @param fileSystems builds each user's view of the mounts
	 * @param passthrough whether a mount logs in to its backend as the user, so the login
	 * must be kept
	 */
	PassCommand(Authenticator authenticator, StorageFileSystemFactory fileSystems, boolean passthrough) {
		this.authenticator = authenticator;
		this.fileSystems = fileSystems;
		this.passthrough = passthrough;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		String name = session.userArgument();
		if (session.isLoggedIn()) {
			session.reply(503, "Already logged in.");
			return;
		}
		if (name == null) {
			session.reply(503, "Login with USER first.");
			return;
		}
		String password = (request.argument() != null) ? request.argument() : "";
		session.setUserArgument(null);
		Mono<Reply> login = this.authenticator.loginWithPasswordOrToken("ftp", name, password, session.clientAddress())
			.map(result -> outcome(session, name, password, result));
		ReplyingOperation.start(session, false, login, error -> Reply.closing(421, "Login failed; closing."));
	}

	private Reply outcome(FtpSession session, String name, String password, LoginResult result) {
		if (result instanceof LoginResult.Success success) {
			if (!this.fileSystems.canUse(success.user())) {
				return Reply.closing(530, "This account has no FTP access.");
			}
			Credentials credentials = this.passthrough ? new Credentials(name, password) : null;
			return loggedIn(session, new FtpUser(success.user(), credentials));
		}
		if (result instanceof LoginResult.Throttled throttled) {
			long seconds = Math.max(1, throttled.retryAfter().toSeconds());
			return Reply.closing(421, "Too many failed logins; try again in " + seconds + " seconds.");
		}
		if (result instanceof LoginResult.Unavailable unavailable) {
			long seconds = Math.max(1, unavailable.retryAfter().toSeconds());
			return Reply.closing(421, "Logins are unavailable; try again in " + seconds + " seconds.");
		}
		if (session.context().loginFailed() >= MAX_FAILURES) {
			return Reply.closing(530, "Login incorrect; closing after " + MAX_FAILURES + " failures.");
		}
		return Reply.of(530, "Login incorrect.");
	}

	private Reply loggedIn(FtpSession session, FtpUser user) {
		MountFileSystemView view;
		try {
			view = this.fileSystems.createFileSystemView(user);
		}
		catch (Exception ex) {
			return Reply.closing(421, "Cannot open the file system; closing.");
		}
		session.login(user, view);
		return Reply.of(230, "User logged in, proceed.");
	}

}
