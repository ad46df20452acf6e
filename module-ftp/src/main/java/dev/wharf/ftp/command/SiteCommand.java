package dev.wharf.ftp.command;

import dev.wharf.ftp.session.CommandLine;

/**
 * {@code SITE}: {@code UTIME} sets modification times ({@link ModificationTimeCommand});
 * {@code CHMOD} is answered {@code 202} (RFC 959: not implemented, superfluous at this
 * site), because Wharf's mounts have no Unix permission model, and mirroring clients
 * (lftp's {@code mirror -R}) send it after each upload and count any refusal as a failed
 * transfer. Other {@code SITE} commands are not offered ({@code 502}).
 */
final class SiteCommand extends WharfCommand {

	private final FtpCommand utime;

	/**
	 * Creates the command.
	 * @param utime {@code SITE UTIME}
	 */
	SiteCommand(FtpCommand utime) {
		this.utime = utime;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		String argument = request.argument();
		String name = (argument == null) ? "" : argument.split(" ", 2)[0];
		if (name.equalsIgnoreCase("UTIME")) {
			this.utime.execute(session, request);
			return;
		}
		session.resetState();
		if (name.equalsIgnoreCase("CHMOD")) {
			session.reply(202, "SITE CHMOD not needed: Wharf's mounts keep no Unix permissions.");
			return;
		}
		session.reply(502, "SITE " + ((name.length() > 16) ? name.substring(0, 16) + "..." : name)
				+ " not implemented; SITE offers only UTIME and CHMOD.");
	}

}
