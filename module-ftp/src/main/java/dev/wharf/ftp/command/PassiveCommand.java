package dev.wharf.ftp.command;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.SessionContext;
import org.jspecify.annotations.Nullable;

/**
 * {@code PASV} and {@code EPSV} (RFC 2428): promise a passive port to this session. Only
 * a connection from the client's own address is accepted on it. {@code PASV} announces
 * the configured external address, or the address the client reached; {@code EPSV}
 * announces only the port. {@code EPSV ALL} turns the other set-up commands off.
 */
final class PassiveCommand extends WharfCommand {

	private final boolean extended;

	private final @Nullable InetAddress externalAddress;

	/**
	 * Creates the command.
	 * @param extended whether this is {@code EPSV}
	 * @param externalAddress the address {@code PASV} announces, or {@code null} for the
	 * control connection's
	 */
	PassiveCommand(boolean extended, @Nullable InetAddress externalAddress) {
		this.extended = extended;
		this.externalAddress = externalAddress;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		SessionContext context = session.context();
		String argument = request.argument();
		InetAddress local = context.data().controlAddress().getAddress();
		if (this.extended) {
			if ("ALL".equalsIgnoreCase(argument)) {
				context.extendedPassiveOnly();
				session.reply(200, "EPSV ALL okay: only EPSV sets up data connections from now on.");
				return;
			}
			String family = (local instanceof Inet6Address) ? "2" : "1";
			if (argument != null && !argument.equals(family)) {
				session.reply(522, "Network protocol not supported, use (" + family + ")");
				return;
			}
		}
		else if (context.isExtendedPassiveOnly()) {
			session.reply(503, "EPSV ALL was sent: use EPSV.");
			return;
		}
		InetAddress announced = (this.externalAddress != null) ? this.externalAddress : local;
		if (!this.extended && !(announced instanceof Inet4Address)) {
			session.reply(425, "PASV needs IPv4; use EPSV.");
			return;
		}
		int port;
		try {
			port = context.data().initPassiveDataConnection().getPort();
		}
		catch (IOException ex) {
			session.reply(425, "Cannot open a passive port: " + ex.getMessage());
			return;
		}
		if (this.extended) {
			session.reply(229, "Entering Extended Passive Mode (|||" + port + "|)");
		}
		else {
			byte[] address = announced.getAddress();
			session.reply(227, "Entering Passive Mode (" + (address[0] & 0xff) + "," + (address[1] & 0xff) + ","
					+ (address[2] & 0xff) + "," + (address[3] & 0xff) + "," + (port >> 8) + "," + (port & 0xff) + ").");
		}
	}

}
