package dev.wharf.ftp.command;

import java.time.Instant;
import java.util.List;

import dev.wharf.core.storage.Capability;
import dev.wharf.ftp.filesystem.Location;
import org.apache.ftpserver.ftplet.FtpReply;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;
import org.jspecify.annotations.Nullable;

/**
 * Sets a file's or folder's modification time, so that mirroring clients (lftp, rclone) keep the original times
 * instead of falling back to comparing sizes: {@code MFMT YYYYMMDDHHMMSS path} (draft-somers-ftp-mfxx, answered
 * {@code 213 Modify=YYYYMMDDHHMMSS; path}) and the two forms of {@code SITE UTIME} lftp knows,
 * {@code SITE UTIME YYYYMMDDHHMMSS path} and {@code SITE UTIME path atime mtime ctime UTC}. Times are UTC. Needs
 * write access to the mount, and a mount that keeps times ({@link Capability#MODIFICATION_TIME}); other mounts
 * answer {@code 504}. {@code SITE} offers nothing else ({@code 502}).
 */
final class ModificationTimeCommand extends WharfCommand {

	/** Which command. */
	enum Kind {

		MFMT, SITE

	}

	private final Kind kind;

	private final Audit audit;

	/**
	 * Creates the command.
	 * @param kind which command
	 * @param audit records the changes
	 */
	ModificationTimeCommand(Kind kind, Audit audit) {
		this.kind = kind;
		this.audit = audit;
	}

	@Override
	void execute(FtpIoSession session, FtpRequest request) {
		session.resetState();
		String argument = request.getArgument();
		if (this.kind == Kind.SITE && !isUtime(argument)) {
			String name = (argument == null) ? "" : argument.split(" ", 2)[0];
			reply(session, 502, "SITE " + ((name.length() > 16) ? name.substring(0, 16) + "..." : name)
					+ " not implemented; SITE offers only UTIME.");
			return;
		}
		Change change = (this.kind == Kind.MFMT) ? mfmt(argument) : siteUtime(argument);
		if (change == null) {
			reply(session, 501, "Syntax: " + ((this.kind == Kind.MFMT) ? "MFMT YYYYMMDDHHMMSS path"
					: "SITE UTIME YYYYMMDDHHMMSS path") + " (UTC).");
			return;
		}
		Location.InMount in = inMount(session, change.path());
		if (in == null) {
			return;
		}
		String path = in.virtualPath().toString();
		if (!in.mount().storage().capabilities().contains(Capability.MODIFICATION_TIME)) {
			reply(session, 504, path + ": This mount does not keep modification times.");
			return;
		}
		respond(session, path, this.audit
			.recorded(session, "set-time", Audit.target(in),
					in.mount().call(storage -> storage.setLastModified(in.path(), change.time())))
			.map(entry -> reply(entry.lastModified(), path)));
	}

	private FtpReply reply(Instant time, String path) {
		return (this.kind == Kind.MFMT) ? Replies.of(213, "Modify=" + Listings.time(time) + "; " + path)
				: Replies.of(200, "Modification time of " + path + " set to " + Listings.time(time) + ".");
	}

	/** {@code MFMT time path}, or {@code null} if it is malformed. */
	private static @Nullable Change mfmt(@Nullable String argument) {
		int space = (argument != null) ? argument.indexOf(' ') : -1;
		if (space < 0) {
			return null;
		}
		Instant time = Listings.parseTime(argument.substring(0, space));
		String path = argument.substring(space + 1);
		return (time != null && !path.isEmpty()) ? new Change(time, path) : null;
	}

	private static boolean isUtime(@Nullable String argument) {
		return argument != null && (argument.regionMatches(true, 0, "UTIME ", 0, 6) || argument.equalsIgnoreCase("UTIME"));
	}

	/** {@code SITE UTIME time path} or {@code SITE UTIME path atime mtime ctime UTC}; {@code null} if it is malformed. */
	private static @Nullable Change siteUtime(String argument) {
		String rest = (argument.length() > 6) ? argument.substring(6) : "";
		Change first = mfmt(rest);
		if (first != null) {
			return first;
		}
		// The five-argument form names the file first; its name may hold spaces, so the times are taken from the end.
		List<String> words = List.of(rest.split(" "));
		if (words.size() < 5 || !words.get(words.size() - 1).equalsIgnoreCase("UTC")) {
			return null;
		}
		Instant time = Listings.parseTime(words.get(words.size() - 3));
		String path = String.join(" ", words.subList(0, words.size() - 4));
		return (time != null && !path.isEmpty()) ? new Change(time, path) : null;
	}

	/** A parsed request: the new time and the path as sent. */
	private record Change(Instant time, String path) {
	}

}
