package dev.wharf.ftp.command;

import java.net.SocketAddress;
import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import dev.wharf.ftp.session.FtpUser;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;
import org.jspecify.annotations.Nullable;

/**
 * One control connection as Wharf's commands see it: where replies go, who is logged in,
 * their mounts, and the state that one command leaves for the next ({@code REST},
 * {@code RNFR}, {@code USER}). The FTP engine implements it over its own session. Safe to
 * use from any thread; a session's commands run one at a time.
 */
public interface FtpSession {

	/**
	 * Sends a reply, closing the connection after it if the reply says so.
	 * @param reply the reply
	 */
	void reply(Reply reply);

	/**
	 * Sends a one-line reply.
	 * @param code the reply code
	 * @param text the text
	 */
	default void reply(int code, String text) {
		reply(Reply.of(code, text));
	}

	/**
	 * Wharf's state of the session: the command queue, the running operation, the data
	 * connection set-up.
	 */
	SessionContext context();

	/** The logged-in user, or {@code null} before login. */
	@Nullable FtpUser user();

	/**
	 * The logged-in user, for the commands that run only after login.
	 * @return the user
	 * @throws IllegalStateException before login
	 */
	default FtpUser loggedInUser() {
		FtpUser user = user();
		if (user == null) {
			throw new IllegalStateException("Not logged in");
		}
		return user;
	}

	/** The logged-in user's name, or {@code null} before login. */
	default @Nullable String userName() {
		FtpUser user = user();
		return (user != null) ? user.name() : null;
	}

	/** Whether a user is logged in. */
	default boolean isLoggedIn() {
		return user() != null;
	}

	/**
	 * Logs a user in.
	 * @param user the user
	 * @param files their view of the mounts
	 */
	void login(FtpUser user, MountFileSystemView files);

	/**
	 * The logged-in user's view of the mounts.
	 * @return the view
	 * @throws IllegalStateException before login
	 */
	MountFileSystemView files();

	/** The name {@code USER} gave, waiting for {@code PASS}, or {@code null}. */
	@Nullable String userArgument();

	/**
	 * Keeps or forgets the name {@code USER} gave.
	 * @param name the name, or {@code null} to forget it
	 */
	void setUserArgument(@Nullable String name);

	/** The offset a preceding {@code REST} set, 0 without one. */
	long fileOffset();

	/** The source a preceding {@code RNFR} named, or {@code null}. */
	MountLocation.@Nullable InMount renameFrom();

	/**
	 * Keeps the source of a rename for the {@code RNTO} that follows.
	 * @param source the source
	 */
	void setRenameFrom(MountLocation.InMount source);

	/**
	 * Forgets what the previous command left for this one ({@code REST}'s offset,
	 * {@code RNFR}'s source).
	 */
	void resetState();

	/** The facts {@code OPTS MLST} chose, as sent, or {@code null} if it was not sent. */
	@Nullable List<String> chosenFacts();

	/** The client's end of the control connection. */
	SocketAddress remoteAddress();

	/** The client's IP address as text, or {@code null} if it is not an IP connection. */
	@Nullable String clientAddress();

	/** Whether the control connection is still open and not closing. */
	boolean isOpen();

}
