package dev.wharf.ftp.command;

import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import reactor.core.publisher.Mono;

/**
 * {@code SIZE}, {@code MDTM} and {@code MLST} (RFC 3659): what is known about one path.
 */
final class FileInfoCommand extends WharfCommand {

	/** Which of the three commands. */
	enum Kind {

		SIZE, MDTM, MLST

	}

	private final Kind kind;

	/**
	 * Creates the command.
	 * @param kind which command
	 */
	FileInfoCommand(Kind kind) {
		this.kind = kind;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		String argument = request.argument();
		MountLocation location = (this.kind == Kind.MLST && argument == null) ? session.files().locate((String) null)
				: locate(session, argument);
		if (location == null) {
			return;
		}
		String path = location.virtualPath().toString();
		Mono<Listings.Listed> listed;
		if (location instanceof MountLocation.InMount in) {
			listed = in.mount().storage().stat(in.path()).map(entry -> new Listings.Listed(path, entry, in.mount()));
		}
		else if (location instanceof MountLocation.Top && this.kind == Kind.MLST) {
			session.reply(Reply.lines(250, List.of("Listing /", " Type=dir;Perm=el; /", "End")));
			return;
		}
		else {
			session.reply(550, path + ": No such file.");
			return;
		}
		List<String> facts = Listings.chosenFacts(session.chosenFacts());
		respond(session, path, listed.map(found -> answer(found, path, facts)));
	}

	private Reply answer(Listings.Listed listed, String path, List<String> facts) {
		FileEntry entry = listed.entry();
		return switch (this.kind) {
			case SIZE -> entry.isFile() ? Reply.of(213, Long.toString(entry.size()))
					: Reply.of(550, path + ": Not a plain file.");
			case MDTM -> entry.isFile() ? Reply.of(213, Listings.time(entry.lastModified()))
					: Reply.of(550, path + ": Not a plain file.");
			case MLST ->
				Reply.lines(250, List.of("Listing " + path, " " + Listings.facts(listed, facts) + path, "End"));
		};
	}

}
