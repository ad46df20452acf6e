package dev.wharf.ftp.command;

import java.net.InetSocketAddress;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.Credentials;
import dev.wharf.ftp.filesystem.FtpUser;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import dev.wharf.ftp.filesystem.StorageFileSystemFactory;
import dev.wharf.ftp.session.SessionContext;
import org.apache.ftpserver.ftplet.FtpReply;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;
import reactor.core.publisher.Mono;

/**
 * {@code PASS}: logs in through Wharf's {@link Authenticator}, shared with every protocol: the password is
 * checked off the command threads, failures are throttled per account and per address without sleeping
 * anywhere, and every attempt is audited. A throttled client is told when to retry and disconnected; after
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
	 * @param passthrough whether a mount logs in to its backend as the user, so the login must be kept
	 */
	PassCommand(Authenticator authenticator, StorageFileSystemFactory fileSystems, boolean passthrough) {
		this.authenticator = authenticator;
		this.fileSystems = fileSystems;
		this.passthrough = passthrough;
	}

	@Override
	void execute(FtpIoSession session, FtpRequest request) {
		session.resetState();
		String name = session.getUserArgument();
		if (session.isLoggedIn()) {
			reply(session, 503, "Already logged in.");
			return;
		}
		if (name == null) {
			reply(session, 503, "Login with USER first.");
			return;
		}
		String password = (request.getArgument() != null) ? request.getArgument() : "";
		session.setUserArgument(null);
		String client = (session.getRemoteAddress() instanceof InetSocketAddress address)
				? address.getAddress().getHostAddress() : null;
		Mono<FtpReply> login = this.authenticator.login("ftp", name, password, client)
			.map(result -> outcome(session, name, password, result));
		ReplyingOperation.start(session, false, login, error -> Replies.closing(421, "Login failed; closing."));
	}

	private FtpReply outcome(FtpIoSession session, String name, String password, LoginResult result) {
		if (result instanceof LoginResult.Success success) {
			if (!this.fileSystems.canUse(success.user())) {
				return Replies.closing(530, "This account has no FTP access.");
			}
			Credentials credentials = this.passthrough ? new Credentials(name, password) : null;
			return loggedIn(session, new FtpUser(success.user(), credentials));
		}
		if (result instanceof LoginResult.Throttled throttled) {
			long seconds = Math.max(1, throttled.retryAfter().toSeconds());
			return Replies.closing(421, "Too many failed logins; try again in " + seconds + " seconds.");
		}
		if (result instanceof LoginResult.Unavailable unavailable) {
			long seconds = Math.max(1, unavailable.retryAfter().toSeconds());
			return Replies.closing(421, "Logins are unavailable; try again in " + seconds + " seconds.");
		}
		if (SessionContext.of(session).loginFailed() >= MAX_FAILURES) {
			return Replies.closing(530, "Login incorrect; closing after " + MAX_FAILURES + " failures.");
		}
		return Replies.of(530, "Login incorrect.");
	}

	private FtpReply loggedIn(FtpIoSession session, FtpUser user) {
		MountFileSystemView view;
		try {
			view = this.fileSystems.createFileSystemView(user);
		}
		catch (Exception ex) {
			return Replies.closing(421, "Cannot open the file system; closing.");
		}
		session.setUser(user);
		session.setLogin(view);
		return Replies.of(230, "User logged in, proceed.");
	}

}
