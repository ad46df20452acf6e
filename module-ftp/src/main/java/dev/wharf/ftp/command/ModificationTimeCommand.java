package dev.wharf.ftp.command;

import java.time.Instant;
import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.Audit;
import dev.wharf.core.storage.Capability;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import org.jspecify.annotations.Nullable;

/**
 * Sets a file's or folder's modification time, so that mirroring clients (lftp, rclone)
 * keep the original times instead of falling back to comparing sizes:
 * {@code MFMT YYYYMMDDHHMMSS path} (draft-somers-ftp-mfxx, answered
 * {@code 213 Modify=YYYYMMDDHHMMSS; path}) and the two forms of {@code SITE UTIME} lftp
 * knows, {@code SITE UTIME YYYYMMDDHHMMSS path} and
 * {@code SITE UTIME path atime mtime ctime UTC}. Times are UTC. Needs write access to the
 * mount, and a mount that keeps times ({@link Capability#MODIFICATION_TIME}); other
 * mounts answer {@code 504}. {@link SiteCommand} hands {@code SITE UTIME} here.
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
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		String argument = request.argument();
		Change change = (this.kind == Kind.MFMT) ? mfmt(argument) : siteUtime(argument);
		if (change == null) {
			session.reply(501,
					"Syntax: "
							+ ((this.kind == Kind.MFMT) ? "MFMT YYYYMMDDHHMMSS path" : "SITE UTIME YYYYMMDDHHMMSS path")
							+ " (UTC).");
			return;
		}
		MountLocation.InMount in = inMount(session, change.path());
		if (in == null) {
			return;
		}
		String path = in.virtualPath().toString();
		if (!in.mount().storage().capabilities().contains(Capability.MODIFICATION_TIME)) {
			session.reply(504, path + ": This mount does not keep modification times.");
			return;
		}
		respond(session, path,
				this.audit
					.recorded(session.userName(), session.clientAddress(), "set-time", auditTarget(in),
							in.mount().storage().setLastModified(in.path(), change.time()))
					.map(entry -> reply(entry.lastModified(), path)));
	}

	private Reply reply(Instant time, String path) {
		return (this.kind == Kind.MFMT) ? Reply.of(213, "Modify=" + Listings.time(time) + "; " + path)
				: Reply.of(200, "Modification time of " + path + " set to " + Listings.time(time) + ".");
	}

	/** {@code MFMT time path}, or {@code null} if it is malformed. */
	private static @Nullable Change mfmt(@Nullable String argument) {
		if (argument == null) {
			return null;
		}
		int space = argument.indexOf(' ');
		if (space < 0) {
			return null;
		}
		Instant time = Listings.parseTime(argument.substring(0, space));
		String path = argument.substring(space + 1);
		return (time != null && !path.isEmpty()) ? new Change(time, path) : null;
	}

	/**
	 * {@code SITE UTIME time path} or {@code SITE UTIME path atime mtime ctime UTC};
	 * {@code null} if it is malformed.
	 */
	private static @Nullable Change siteUtime(@Nullable String argument) {
		if (argument == null) {
			return null;
		}
		String rest = (argument.length() > 6) ? argument.substring(6) : "";
		Change first = mfmt(rest);
		if (first != null) {
			return first;
		}
		// The five-argument form names the file first; its name may hold spaces, so the
		// times are taken from the end.
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
