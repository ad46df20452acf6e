package dev.wharf.ftp.engine;

import dev.wharf.ftp.session.CommandLine;
import org.apache.ftpserver.ftplet.FtpRequest;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CommandLine} as Apache FtpServer's {@link FtpRequest}, for the FtpServer
 * commands the engine keeps. Immutable.
 *
 * @param line the command line
 */
record EngineRequest(CommandLine line) implements FtpRequest {

	@Override
	public String getCommand() {
		return this.line.command();
	}

	@Override
	public @Nullable String getArgument() {
		return this.line.argument();
	}

	@Override
	public boolean hasArgument() {
		return this.line.argument() != null;
	}

	@Override
	public String getRequestLine() {
		return this.line.line();
	}

	@Override
	public long getReceivedTime() {
		return this.line.receivedTime();
	}

	/** The line with a password hidden, for logs. */
	@Override
	public String toString() {
		return this.line.toString();
	}

}
