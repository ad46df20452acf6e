package dev.wharf.ftp.command;

import dev.wharf.core.storage.StoragePath;
import dev.wharf.ftp.filesystem.Location;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;

/**
 * {@code CWD} and {@code CDUP}: change the working folder to an existing folder. {@code CWD ..} is {@code CDUP};
 * other paths with {@code ..} are refused like every bad path, and neither goes above {@code /} (refused, not
 * clamped).
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
	void execute(FtpIoSession session, FtpRequest request) {
		session.resetState();
		MountFileSystemView view = view(session);
		String argument = request.getArgument();
		Location location;
		if (this.up || "..".equals(argument)) {
			StoragePath parent = view.parentOfWorkingDirectory();
			if (parent == null) {
				reply(session, 550, "/: Already at the top.");
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
		if (location instanceof Location.VirtualRoot) {
			view.changeWorkingDirectory(target);
			reply(session, 250, "Directory changed to " + target + ".");
		}
		else if (location instanceof Location.InMount in) {
			respond(session, target.toString(), in.mount().call(storage -> storage.stat(in.path())).map(entry -> {
				if (!entry.isDirectory()) {
					return Replies.of(550, target + ": Not a folder.");
				}
				view.changeWorkingDirectory(target);
				return Replies.of(250, "Directory changed to " + target + ".");
			}));
		}
		else {
			reply(session, 550, target + ": No such file or folder.");
		}
	}

}
