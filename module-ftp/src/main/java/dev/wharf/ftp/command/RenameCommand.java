package dev.wharf.ftp.command;

import dev.wharf.ftp.filesystem.Location;
import dev.wharf.ftp.filesystem.MountFtpFile;
import org.apache.ftpserver.ftplet.FtpFile;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;

/**
 * {@code RNFR} and {@code RNTO}: move or rename within one mount. An existing file at the target is replaced
 * (as a POSIX rename does), an existing folder never; the mount must be able to move entries.
 */
final class RenameCommand extends WharfCommand {

	private final boolean to;

	private final Audit audit;

	/**
	 * Creates the command.
	 * @param to whether this is {@code RNTO}
	 * @param audit records moves
	 */
	RenameCommand(boolean to, Audit audit) {
		this.to = to;
		this.audit = audit;
	}

	@Override
	void execute(FtpIoSession session, FtpRequest request) {
		FtpFile pending = session.getRenameFrom();
		session.resetState();
		if (this.to) {
			rename(session, request, pending);
			return;
		}
		Location.InMount from = changeable(session, request.getArgument());
		if (from == null) {
			return;
		}
		String path = from.virtualPath().toString();
		respond(session, path, from.mount().call(storage -> storage.stat(from.path())).map(entry -> {
			session.setRenameFrom(new MountFtpFile(from));
			return Replies.of(350, path + ": Ready for RNTO.");
		}));
	}

	private void rename(FtpIoSession session, FtpRequest request, FtpFile pending) {
		if (!(pending instanceof MountFtpFile source) || !(source.location() instanceof Location.InMount from)) {
			reply(session, 503, "Send RNFR first.");
			return;
		}
		Location.InMount target = changeable(session, request.getArgument());
		if (target == null) {
			return;
		}
		if (target.mount() != from.mount()) {
			reply(session, 553, "Cannot move between mounts; download and upload instead.");
			return;
		}
		String path = target.virtualPath().toString();
		respond(session, path, this.audit.recorded(session, "move", Audit.target(from) + " -> " + Audit.target(target),
				from.mount().call(storage -> storage.move(from.path(), target.path(), true)))
			.map(moved -> Replies.of(250, "Renamed to " + path + ".")));
	}

}
