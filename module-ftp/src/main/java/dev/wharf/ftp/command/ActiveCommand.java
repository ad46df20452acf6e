package dev.wharf.ftp.command;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.SessionContext;
import org.jspecify.annotations.Nullable;

/**
 * {@code PORT} and {@code EPRT} (RFC 2428): the server will connect to the client for the
 * next transfer. Only the client's own address and ports from 1024 up are accepted, so
 * the server cannot be used to reach a third host (the FTP bounce attack, RFC 2577
 * section 3). Addresses must be literals: no name is ever looked up.
 */
final class ActiveCommand extends WharfCommand {

	private static final Pattern PORT_ARGUMENT = Pattern.compile("\\d{1,3}(,\\d{1,3}){5}");

	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

	private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

	private final boolean extended;

	private final boolean enabled;

	/**
	 * Creates the command.
	 * @param extended whether this is {@code EPRT}
	 * @param enabled whether active mode is allowed at all
	 */
	ActiveCommand(boolean extended, boolean enabled) {
		this.extended = extended;
		this.enabled = enabled;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		SessionContext context = session.context();
		String name = this.extended ? "EPRT" : "PORT";
		if (!this.enabled) {
			session.reply(502, "Active mode is disabled: use PASV or EPSV.");
			return;
		}
		if (context.isExtendedPassiveOnly()) {
			session.reply(503, "EPSV ALL was sent: use EPSV.");
			return;
		}
		String argument = request.argument();
		InetSocketAddress target;
		try {
			target = (argument == null) ? null : this.extended ? parseEprt(argument) : parsePort(argument);
		}
		catch (UnsupportedFamily ex) {
			session.reply(522, "Network protocol not supported, use (1,2)");
			return;
		}
		if (target == null) {
			session.reply(501, "Syntax error in " + name + " arguments.");
			return;
		}
		InetAddress client = context.data().clientAddress().getAddress();
		if (!target.getAddress().equals(client)) {
			session.reply(501, "Rejected: data connections go only to your own address (RFC 2577).");
			return;
		}
		if (target.getPort() < 1024) {
			session.reply(501, "Rejected: data ports below 1024 are not allowed (RFC 2577).");
			return;
		}
		context.data().initActiveDataConnection(target);
		session.reply(200, name + " command successful.");
	}

	/** {@code h1,h2,h3,h4,p1,p2}. */
	static @Nullable InetSocketAddress parsePort(String argument) {
		if (!PORT_ARGUMENT.matcher(argument).matches()) {
			return null;
		}
		String[] parts = argument.split(",");
		InetAddress address = ipv4(String.join(".", parts[0], parts[1], parts[2], parts[3]));
		int high = Integer.parseInt(parts[4]);
		int low = Integer.parseInt(parts[5]);
		if (address == null || high > 255 || low > 255) {
			return null;
		}
		return new InetSocketAddress(address, (high << 8) | low);
	}

	/** {@code <d><proto><d><address><d><port><d>}, such as {@code |1|10.0.0.5|6275|}. */
	static @Nullable InetSocketAddress parseEprt(String argument) {
		if (argument.length() < 7) {
			return null;
		}
		char delimiter = argument.charAt(0);
		if (delimiter < 33 || delimiter > 126 || argument.charAt(argument.length() - 1) != delimiter) {
			return null;
		}
		String[] parts = argument.substring(1, argument.length() - 1)
			.split(Pattern.quote(String.valueOf(delimiter)), -1);
		if (parts.length != 3 || !parts[2].matches("\\d{1,5}")) {
			return null;
		}
		InetAddress address;
		switch (parts[0]) {
			case "1" -> address = ipv4(parts[1]);
			case "2" -> address = ipv6(parts[1]);
			default -> throw new UnsupportedFamily();
		}
		int port = Integer.parseInt(parts[2]);
		return (address != null && port > 0 && port <= 65535) ? new InetSocketAddress(address, port) : null;
	}

	private static @Nullable InetAddress ipv4(String text) {
		if (!IPV4.matcher(text).matches()) {
			return null;
		}
		String[] parts = text.split("\\.");
		byte[] address = new byte[4];
		for (int i = 0; i < 4; i++) {
			int value = Integer.parseInt(parts[i]);
			if (value > 255) {
				return null;
			}
			address[i] = (byte) value;
		}
		try {
			return InetAddress.getByAddress(address);
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	private static @Nullable InetAddress ipv6(String text) {
		if (!IPV6.matcher(text).matches()) {
			return null;
		}
		try {
			// With a colon the JDK parses an IPv6 literal and never looks a name up.
			InetAddress address = InetAddress.getByName(text);
			return (address instanceof Inet6Address) ? address : null;
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	/** An {@code EPRT} network protocol other than 1 (IPv4) and 2 (IPv6). */
	static final class UnsupportedFamily extends RuntimeException {

		private static final long serialVersionUID = 1L;

		UnsupportedFamily() {
			super(null, null, false, false);
		}

	}

}
