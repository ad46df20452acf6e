package dev.wharf.ftp.command;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;

/**
 * {@code FEAT} (RFC 2389): answered before login too, and listing only what this server
 * really offers with its configuration.
 */
final class FeatCommand extends WharfCommand {

	private final Reply reply;

	/**
	 * Creates the command.
	 * @param explicitTls whether {@code AUTH TLS} is offered
	 * @param tls whether TLS is available at all ({@code PBSZ}, {@code PROT})
	 * @param activeMode whether {@code EPRT} is allowed
	 * @param modificationTimes whether a mount keeps times that {@code MFMT} sets
	 */
	FeatCommand(boolean explicitTls, boolean tls, boolean activeMode, boolean modificationTimes) {
		List<String> lines = new ArrayList<>();
		lines.add("Extensions supported:");
		if (explicitTls) {
			lines.add(" AUTH TLS");
		}
		if (tls) {
			lines.add(" PBSZ");
			lines.add(" PROT");
		}
		if (activeMode) {
			lines.add(" EPRT");
		}
		lines.add(" EPSV");
		lines.add(" MDTM");
		if (modificationTimes) {
			lines.add(" MFMT");
		}
		lines.add(" MLST " + String.join("", Listings.FACTS.stream().map(fact -> fact + "*;").toList()));
		lines.add(" REST STREAM");
		lines.add(" SIZE");
		lines.add(" TVFS");
		lines.add(" UTF8");
		lines.add("End");
		this.reply = Reply.lines(211, lines);
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		session.reply(this.reply);
	}

}
