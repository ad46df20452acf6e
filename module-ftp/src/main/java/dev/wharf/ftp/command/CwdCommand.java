package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;

/**
 * {@code CWD} and {@code CDUP}: change the working folder to an existing folder.
 * {@code CWD ..} is {@code CDUP}; other paths with {@code ..} are refused like every bad
 * path, and neither goes above {@code /} (refused, not clamped).
 */
final class CwdCommand extends WharfCommand {

	private final boolean up;

	/**
	 * Creates the command.
	 * @param up whether this is {@code CDUP}
	 */
	CwdCommand(boolean up) {
		this.up = up;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		MountFileSystemView view = session.files();
		String argument = request.argument();
		MountLocation location;
		if (this.up || "..".equals(argument)) {
			StoragePath parent = view.parentOfWorkingDirectory();
			if (parent == null) {
				session.reply(550, "/: Already at the top.");
				return;
			}
			location = view.locate(parent);
		}
		else {
			location = locate(session, argument);
			if (location == null) {
				return;
			}
		}
		StoragePath target = location.virtualPath();
		if (location instanceof MountLocation.Top) {
			view.changeWorkingDirectory(target);
			session.reply(250, "Directory changed to " + target + ".");
		}
		else if (location instanceof MountLocation.InMount in) {
			respond(session, target.toString(), in.mount().storage().stat(in.path()).map(entry -> {
				if (!entry.isDirectory()) {
					return Reply.of(550, target + ": Not a folder.");
				}
				view.changeWorkingDirectory(target);
				return Reply.of(250, "Directory changed to " + target + ".");
			}));
		}
		else {
			session.reply(550, target + ": No such file or folder.");
		}
	}

}
