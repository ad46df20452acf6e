package dev.wharf.ftp.server;

import java.util.Locale;
import java.util.Map;

import org.apache.ftpserver.ftplet.FtpRequest;
import org.jspecify.annotations.Nullable;

/**
 * One command line: the command (upper case, with the RFC 775 {@code X} forms mapped to their RFC 959 names)
 * and its argument exactly as sent after the first space, spaces included. Immutable.
 */
final class ControlRequest implements FtpRequest {

	private static final Map<String, String> X_FORMS = Map.of("XCWD", "CWD", "XCUP", "CDUP", "XPWD", "PWD", "XMKD",
			"MKD", "XRMD", "RMD");

	private final String line;

	private final String command;

	private final @Nullable String argument;

	private final long receivedTime = System.currentTimeMillis();

	ControlRequest(String line) {
		this.line = line;
		int space = line.indexOf(' ');
		String name = ((space < 0) ? line : line.substring(0, space)).toUpperCase(Locale.ROOT);
		this.command = X_FORMS.getOrDefault(name, name);
		String rest = (space < 0) ? null : line.substring(space + 1);
		this.argument = (rest == null || rest.isEmpty()) ? null : rest;
	}

	@Override
	public String getCommand() {
		return this.command;
	}

	@Override
	public @Nullable String getArgument() {
		return this.argument;
	}

	@Override
	public boolean hasArgument() {
		return this.argument != null;
	}

	@Override
	public String getRequestLine() {
		return this.line;
	}

	@Override
	public long getReceivedTime() {
		return this.receivedTime;
	}

	/** The line with a password hidden, for logs. */
	@Override
	public String toString() {
		return "PASS".equals(this.command) ? "PASS *****" : this.line;
	}

}
