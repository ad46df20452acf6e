package dev.wharf.ftp.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.ftpserver.message.MessageResource;
import org.apache.ftpserver.message.MessageResourceFactory;
import org.jspecify.annotations.Nullable;

/**
 * Apache FtpServer's reply texts, with the ones its kept commands send corrected for
 * Wharf: {@code SYST} says what clients expect ({@code UNIX Type: L8}) instead of the
 * server's name, and {@code HELP} lists the commands Wharf really answers. Thread-safe.
 */
final class WharfMessages implements MessageResource {

	private static final Map<String, String> OVERRIDES = Map.of("215.SYST", "UNIX Type: L8", "214",
			"The following commands are recognized:\n"
					+ " ABOR ACCT ALLO APPE AUTH CDUP CWD  DELE EPRT EPSV FEAT HELP LIST MDTM MKD\n"
					+ " MLSD MLST MODE NLST NOOP OPTS PASS PASV PBSZ PORT PROT PWD  QUIT REST RETR\n"
					+ " RMD  RNFR RNTO SIZE STAT STOR STOU STRU SYST TYPE USER XCUP XCWD XMKD XPWD XRMD\n"
					+ "Help OK.");

	private final MessageResource delegate = new MessageResourceFactory().createMessageResource();

	@Override
	public List<String> getAvailableLanguages() {
		return List.of();
	}

	@Override
	public @Nullable String getMessage(int code, @Nullable String subId, @Nullable String language) {
		String key = (subId != null) ? code + "." + subId : Integer.toString(code);
		String override = OVERRIDES.get(key);
		return (override != null) ? override : this.delegate.getMessage(code, subId, null);
	}

	@Override
	public Map<String, String> getMessages(@Nullable String language) {
		Map<String, String> messages = new HashMap<>(this.delegate.getMessages(null));
		messages.putAll(OVERRIDES);
		return messages;
	}

}
