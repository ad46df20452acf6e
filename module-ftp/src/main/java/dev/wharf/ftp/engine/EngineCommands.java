package dev.wharf.ftp.engine;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.wharf.ftp.command.FtpCommand;
import dev.wharf.ftp.command.WharfCommands;
import dev.wharf.ftp.session.Reply;
import org.apache.ftpserver.command.Command;
import org.apache.ftpserver.command.CommandFactory;
import org.apache.ftpserver.command.impl.ACCT;
import org.apache.ftpserver.command.impl.AUTH;
import org.apache.ftpserver.command.impl.HELP;
import org.apache.ftpserver.command.impl.NOOP;
import org.apache.ftpserver.command.impl.OPTS;
import org.apache.ftpserver.command.impl.PBSZ;
import org.apache.ftpserver.command.impl.PROT;
import org.apache.ftpserver.command.impl.REST;
import org.apache.ftpserver.command.impl.STRU;
import org.apache.ftpserver.command.impl.SYST;
import org.apache.ftpserver.command.impl.TYPE;
import org.apache.ftpserver.ftplet.FtpException;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;
import org.jspecify.annotations.Nullable;

/**
 * The commands the FTP engine answers: {@link WharfCommands Wharf's}, each as an
 * FtpServer {@link Command}, and Apache FtpServer's own where they only change session
 * state ({@code AUTH}, {@code PBSZ}, {@code TYPE}, {@code REST}, {@code OPTS}, ...); its
 * {@code PROT} refuses clear data where TLS is required. Immutable and thread-safe.
 */
final class EngineCommands implements CommandFactory {

	private final Map<String, Command> commands;

	/**
	 * Builds the commands.
	 * @param settings what Wharf's commands depend on
	 */
	EngineCommands(WharfCommands.Settings settings) {
		Map<String, Command> map = new HashMap<>();
		WharfCommands.of(settings).forEach((name, command) -> map.put(name, new Adapted(command)));
		map.put("ACCT", new ACCT());
		map.put("AUTH", new AUTH());
		map.put("HELP", new HELP());
		map.put("NOOP", new NOOP());
		map.put("OPTS", new OPTS());
		map.put("PBSZ", new PBSZ());
		map.put("PROT", new Prot(settings.tlsRequired()));
		map.put("REST", new REST());
		map.put("STRU", new STRU());
		map.put("SYST", new SYST());
		map.put("TYPE", new TYPE());
		this.commands = Map.copyOf(map);
	}

	@Override
	public @Nullable Command getCommand(String name) {
		return this.commands.get(name);
	}

	/**
	 * One of Wharf's commands as an FtpServer command.
	 *
	 * @param command Wharf's command
	 */
	private record Adapted(FtpCommand command) implements Command {

		@Override
		public void execute(FtpIoSession session, FtpServerContext context, FtpRequest request) {
			this.command.execute(new EngineSession(session), ((EngineRequest) request).line());
		}

	}

	/**
	 * {@code PROT}: Apache FtpServer's, except that clear data is refused where TLS is
	 * required.
	 */
	private static final class Prot implements Command {

		private final Command delegate = new PROT();

		private final boolean required;

		Prot(boolean required) {
			this.required = required;
		}

		@Override
		public void execute(FtpIoSession session, FtpServerContext context, FtpRequest request)
				throws IOException, FtpException {
			String argument = request.getArgument();
			if (this.required && argument != null && argument.trim().toUpperCase(Locale.ROOT).equals("C")) {
				session.resetState();
				EngineSession.write(session, Reply.of(534, "Clear data connections are not allowed: use PROT P."));
				return;
			}
			this.delegate.execute(session, context, request);
		}

	}

}
