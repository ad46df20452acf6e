package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.session.Reply;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Base of Wharf's FTP commands: how a path argument is located, and how a reply is sent
 * once storage work is done.
 */
abstract class WharfCommand implements FtpCommand {

	/**
	 * Replies once some storage work is done, without holding the thread.
	 * @param session the session
	 * @param path the path concerned, for error replies
	 * @param work emits the reply
	 */
	static void respond(FtpSession session, String path, Mono<Reply> work) {
		ReplyingOperation.start(session, false, work, error -> (error instanceof StorageException storage)
				? Replies.forStorageError(storage, path) : Reply.of(451, path + ": Local error in processing."));
	}

	/**
	 * Parses and locates a path argument, replying {@code 501} without one and
	 * {@code 553} for a bad one.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static @Nullable MountLocation locate(FtpSession session, @Nullable String argument) {
		if (argument == null) {
			session.reply(501, "A path is required.");
			return null;
		}
		try {
			return session.files().locate(argument);
		}
		catch (InvalidStoragePathException ex) {
			session.reply(Replies.forInvalidPath(ex));
			return null;
		}
	}

	/**
	 * Locates a path that must lie inside a mount, replying {@code 550} for the virtual
	 * root and for names that are no mount.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static MountLocation.@Nullable InMount inMount(FtpSession session, @Nullable String argument) {
		MountLocation location = locate(session, argument);
		if (location instanceof MountLocation.InMount in) {
			return in;
		}
		if (location instanceof MountLocation.Top) {
			session.reply(550, "/: Permission denied: the root only holds one folder per mount.");
		}
		else if (location instanceof MountLocation.Unknown missing) {
			session.reply(550, missing.virtualPath() + ": No such file or folder.");
		}
		return null;
	}

	/**
	 * Locates a path inside a mount that may be changed: not the mount's root.
	 * @param session the session
	 * @param argument the argument
	 * @return the location, or {@code null} if a reply was sent
	 */
	static MountLocation.@Nullable InMount changeable(FtpSession session, @Nullable String argument) {
		MountLocation.InMount in = inMount(session, argument);
		if (in != null && in.path().isRoot()) {
			session.reply(550, in.virtualPath() + ": Permission denied: this is a mount's root.");
			return null;
		}
		return in;
	}

	/** How a location is named in the audit log: mount and path. */
	static String auditTarget(MountLocation.InMount location) {
		return location.mount().name() + ":" + location.path();
	}

}
