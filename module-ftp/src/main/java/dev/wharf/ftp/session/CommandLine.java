package dev.wharf.ftp.session;

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One command line: the command (upper case, with the RFC 775 {@code X} forms mapped to
 * their RFC 959 names) and its argument exactly as sent after the first space, spaces
 * included. Immutable.
 */
public final class CommandLine {

	private static final Map<String, String> X_FORMS = Map.of("XCWD", "CWD", "XCUP", "CDUP", "XPWD", "PWD", "XMKD",
			"MKD", "XRMD", "RMD");

	private final String line;

	private final String command;

	private final @Nullable String argument;

	private final long receivedTime = System.currentTimeMillis();

	/**
	 * Parses a line.
	 * @param line the line as decoded, without its end
	 */
	public CommandLine(String line) {
		this.line = line;
		int space = line.indexOf(' ');
		String name = ((space < 0) ? line : line.substring(0, space)).toUpperCase(Locale.ROOT);
		this.command = X_FORMS.getOrDefault(name, name);
		String rest = (space < 0) ? null : line.substring(space + 1);
		this.argument = (rest == null || rest.isEmpty()) ? null : rest;
	}

	/** The command, such as {@code STOR}. */
	public String command() {
		return this.command;
	}

	/** The argument, or {@code null} if there is none. */
	public @Nullable String argument() {
		return this.argument;
	}

	/** The whole line as sent. */
	public String line() {
		return this.line;
	}

	/** When the line was read, in milliseconds since the epoch. */
	public long receivedTime() {
		return this.receivedTime;
	}

	/** The line with a password hidden, for logs. */
	@Override
	public String toString() {
		return "PASS".equals(this.command) ? "PASS *****" : this.line;
	}

}
