package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.Audit;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import org.jspecify.annotations.Nullable;

/**
 * {@code RNFR} and {@code RNTO}: move or rename within one mount. An existing file at the
 * target is replaced (as a POSIX rename does), an existing folder never; the mount must
 * be able to move entries.
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
	public void execute(FtpSession session, CommandLine request) {
		MountLocation.InMount pending = session.renameFrom();
		session.resetState();
		if (this.to) {
			rename(session, request, pending);
			return;
		}
		MountLocation.InMount from = changeable(session, request.argument());
		if (from == null) {
			return;
		}
		String path = from.virtualPath().toString();
		respond(session, path, from.mount().storage().stat(from.path()).map(entry -> {
			session.setRenameFrom(from);
			return Reply.of(350, path + ": Ready for RNTO.");
		}));
	}

	private void rename(FtpSession session, CommandLine request, MountLocation.@Nullable InMount from) {
		if (from == null) {
			session.reply(503, "Send RNFR first.");
			return;
		}
		MountLocation.InMount target = changeable(session, request.argument());
		if (target == null) {
			return;
		}
		if (!target.mount().name().equals(from.mount().name())) {
			session.reply(553, "Cannot move between mounts; download and upload instead.");
			return;
		}
		String path = target.virtualPath().toString();
		respond(session, path,
				this.audit
					.recorded(session.userName(), session.clientAddress(), "move",
							auditTarget(from) + " -> " + auditTarget(target),
							from.mount().storage().move(from.path(), target.path(), true))
					.map(moved -> Reply.of(250, "Renamed to " + path + ".")));
	}

}
