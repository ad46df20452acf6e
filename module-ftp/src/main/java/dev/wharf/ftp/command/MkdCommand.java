package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.Audit;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;

/** {@code MKD}: creates one folder; its parent must exist. */
final class MkdCommand extends WharfCommand {

	private final Audit audit;

	/**
	 * Creates the command.
	 * @param audit records new folders
	 */
	MkdCommand(Audit audit) {
		this.audit = audit;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		MountLocation.InMount in = changeable(session, request.argument());
		if (in == null) {
			return;
		}
		String path = in.virtualPath().toString();
		respond(session, path,
				this.audit
					.recorded(session.userName(), session.clientAddress(), "mkdir", auditTarget(in),
							in.mount().storage().createDirectory(in.path()))
					.map(created -> Reply.of(257, Replies.quoted(path) + " created.")));
	}

}
