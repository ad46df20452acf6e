package dev.wharf.ftp.command;

import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.filesystem.Location;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import org.apache.ftpserver.command.Command;
import org.apache.ftpserver.ftplet.FtpReply;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Base of Wharf's FTP commands: they run on a command thread but never block on the storage; work that waits
 * goes on as a {@link ReplyingOperation} and the session's next command waits for its reply.
 */
abstract class WharfCommand implements Command {

	@Override
	public final void execute(FtpIoSession session, FtpServerContext context, FtpRequest request) {
		execute(session, request);
	}

	/**
	 * Runs the command.
	 * @param session the session
	 * @param request the command
	 */
	abstract void execute(FtpIoSession session, FtpRequest request);

	static MountFileSystemView view(FtpIoSession session) {
		return (MountFileSystemView) session.getFileSystemView();
	}

	static void reply(FtpIoSession session, int code, String text) {
		session.write(Replies.of(code, text));
	}

	/**
	 * Replies once some storage work is done, without holding the thread.
	 * @param session the session
	 * @param path the path concerned, for error replies
	 * @param work emits the reply
	 */
	static void respond(FtpIoSession session, String path, Mono<FtpReply> work) {
		ReplyingOperation.start(session, false, work, error -> (error instanceof StorageException storage)
				? Replies.forStorageError(storage, path) : Replies.of(451, path + ": Local error in processing."));
	}

	/**
	 * Parses and locates a path argument, replying {@code 501} without one and {@code 553} for a bad one.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static @Nullable Location locate(FtpIoSession session, @Nullable String argument) {
		if (argument == null) {
			reply(session, 501, "A path is required.");
			return null;
		}
		try {
			return view(session).locate(argument);
		}
		catch (InvalidStoragePathException ex) {
			session.write(Replies.forInvalidPath(ex));
			return null;
		}
	}

	/**
	 * Locates a path that must lie inside a mount, replying {@code 550} for the virtual root and for names that
	 * are no mount.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static Location.@Nullable InMount inMount(FtpIoSession session, @Nullable String argument) {
		Location location = locate(session, argument);
		if (location instanceof Location.InMount in) {
			return in;
		}
		if (location instanceof Location.VirtualRoot) {
			reply(session, 550, "/: Permission denied: the root only holds one folder per mount.");
		}
		else if (location instanceof Location.NoMount missing) {
			reply(session, 550, missing.virtualPath() + ": No such file or folder.");
		}
		return null;
	}

	/**
	 * Locates a path inside a mount that may be changed: not the mount's root.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static Location.@Nullable InMount changeable(FtpIoSession session, @Nullable String argument) {
		Location.InMount in = inMount(session, argument);
		if (in != null && in.path().isRoot()) {
			reply(session, 550, in.virtualPath() + ": Permission denied: this is a mount's root.");
			return null;
		}
		return in;
	}

}
