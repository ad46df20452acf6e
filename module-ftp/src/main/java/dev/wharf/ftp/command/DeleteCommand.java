package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.Audit;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import reactor.core.publisher.Mono;

/** {@code DELE} (files) and {@code RMD} (empty folders). */
final class DeleteCommand extends WharfCommand {

	private final boolean folder;

	private final Audit audit;

	/**
	 * Creates the command.
	 * @param folder whether this is {@code RMD}
	 * @param audit records deletions
	 */
	DeleteCommand(boolean folder, Audit audit) {
		this.folder = folder;
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
		respond(session, path, in.mount().storage().stat(in.path()).flatMap(entry -> {
			if (this.folder && !entry.isDirectory()) {
				return Mono.just(Reply.of(550, path + ": Not a folder; use DELE."));
			}
			if (!this.folder && entry.isDirectory()) {
				return Mono.just(Reply.of(550, path + ": Is a folder; use RMD."));
			}
			return this.audit
				.recorded(session.userName(), session.clientAddress(), "delete", auditTarget(in),
						in.mount().storage().delete(in.path(), false))
				.then(Mono.fromSupplier(() -> Reply.of(250, path + ": Deleted.")));
		}));
	}

}
