package dev.wharf.ftp.command;

import java.net.SocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;

/**
 * {@code STAT}: the session's status, or (with a path) a listing over the control
 * connection, cut at {@value #MAX_LINES} entries.
 */
final class StatCommand extends WharfCommand {

	static final int MAX_LINES = 1000;

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		String argument = ListingEntries.withoutOptions(request.argument());
		if (argument == null) {
			SocketAddress client = session.remoteAddress();
			session.reply(Reply.lines(211,
					List.of("Wharf FTP server status:", " Connected from " + client,
							" Logged in as " + session.loggedInUser().name(),
							" TYPE: binary (TYPE A is sent unchanged), STRUcture: file, MODE: stream",
							" Data connection: " + (session.context().data().isReady() ? "set up" : "none"),
							" Protection: " + (session.context().data().isSecure() ? "private (TLS)" : "clear"),
							"End of status.")));
			return;
		}
		MountLocation location = locate(session, argument);
		if (location == null) {
			return;
		}
		String path = location.virtualPath().toString();
		Instant now = Instant.now();
		respond(session, path,
				ListingEntries.prepare(location, false)
					.flatMap(entries -> entries.take(MAX_LINES)
						.map(listed -> Listings.list(listed, now).stripTrailing())
						.collectList())
					.map(lines -> {
						List<String> reply = new ArrayList<>(lines.size() + 2);
						reply.add("Status of " + path + ":");
						lines.forEach(line -> reply.add(" " + line));
						reply.add((lines.size() >= MAX_LINES)
								? "End of status (first " + MAX_LINES + " entries; use LIST for all)."
								: "End of status.");
						return Reply.lines(213, reply);
					}));
	}

}
