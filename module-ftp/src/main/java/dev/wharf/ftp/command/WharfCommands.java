package dev.wharf.ftp.command;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.wharf.core.security.Audit;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.filesystem.StorageFileSystemFactory;
import org.jspecify.annotations.Nullable;

/**
 * Wharf's FTP commands: everything that touches files, data connections or logins. The
 * FTP engine adds the commands it keeps from Apache FtpServer, which only change session
 * state ({@code AUTH}, {@code PBSZ}, {@code PROT}, {@code TYPE}, {@code REST},
 * {@code OPTS}, ...). Not offered (answered {@code 502}): {@code SITE} commands other
 * than {@code UTIME} and {@code CHMOD}, {@code MD5}/{@code MMD5} (a whole download on the
 * server), {@code LANG}, {@code REIN}, {@code MODE Z}.
 */
public final class WharfCommands {

	private WharfCommands() {
	}

	/**
	 * Builds the commands.
	 * @param settings what the commands depend on
	 * @return the commands by name, immutable; each is thread-safe and shared by every
	 * session
	 */
	public static Map<String, FtpCommand> of(Settings settings) {
		DataTransfer transfers = new DataTransfer(settings.tlsRequired());
		Audit audit = settings.audit();
		Map<String, FtpCommand> map = new HashMap<>();
		map.put("ABOR", new SimpleCommands.Abort());
		map.put("ALLO", new SimpleCommands.Allocate());
		map.put("APPE", new StoreCommand(StoreCommand.Kind.APPE, transfers, audit));
		map.put("CDUP", new CwdCommand(true));
		map.put("CWD", new CwdCommand(false));
		map.put("DELE", new DeleteCommand(false, audit));
		map.put("EPRT", new ActiveCommand(true, settings.activeMode()));
		map.put("EPSV", new PassiveCommand(true, settings.externalAddress()));
		map.put("FEAT", new FeatCommand(settings.explicitTls(), settings.tls(), settings.activeMode(),
				settings.fileSystems().anyMountCan(Capability.MODIFICATION_TIME)));
		map.put("LIST", new ListCommand(ListCommand.Kind.LIST, transfers));
		map.put("MDTM", new FileInfoCommand(FileInfoCommand.Kind.MDTM));
		map.put("MFMT", new ModificationTimeCommand(ModificationTimeCommand.Kind.MFMT, audit));
		map.put("MKD", new MkdCommand(audit));
		map.put("MLSD", new ListCommand(ListCommand.Kind.MLSD, transfers));
		map.put("MLST", new FileInfoCommand(FileInfoCommand.Kind.MLST));
		map.put("MODE", new SimpleCommands.Mode());
		map.put("NLST", new ListCommand(ListCommand.Kind.NLST, transfers));
		map.put("PASS", new PassCommand(settings.authenticator(), settings.fileSystems(), settings.passthrough()));
		map.put("PASV", new PassiveCommand(false, settings.externalAddress()));
		map.put("PORT", new ActiveCommand(false, settings.activeMode()));
		map.put("PWD", new PwdCommand());
		map.put("QUIT", new SimpleCommands.Quit());
		map.put("RETR", new RetrieveCommand(transfers));
		map.put("RMD", new DeleteCommand(true, audit));
		map.put("RNFR", new RenameCommand(false, audit));
		map.put("RNTO", new RenameCommand(true, audit));
		map.put("SITE", new SiteCommand(new ModificationTimeCommand(ModificationTimeCommand.Kind.SITE, audit)));
		map.put("SIZE", new FileInfoCommand(FileInfoCommand.Kind.SIZE));
		map.put("STAT", new StatCommand());
		map.put("STOR", new StoreCommand(StoreCommand.Kind.STOR, transfers, audit));
		map.put("STOU", new StoreCommand(StoreCommand.Kind.STOU, transfers, audit));
		map.put("USER", new UserCommand());
		return Map.copyOf(map);
	}

	/**
	 * FTP's way into the audit log: protocol {@code ftp}; a failed change is named by its
	 * storage error's kind ({@code not_found}, ...) or {@code failure}, one that
	 * {@code ABOR} or a closed connection stopped {@code aborted}.
	 * @param log the audit log
	 * @return the recorder
	 */
	public static Audit audit(AuditLog log) {
		return new Audit(log, "ftp", error -> (error instanceof StorageException storage)
				? storage.kind().name().toLowerCase(Locale.ROOT) : "failure", "aborted");
	}

	/**
	 * What the commands depend on.
	 *
	 * @param authenticator logs users in
	 * @param fileSystems each user's view of the mounts
	 * @param audit records changes and logouts ({@link #audit(AuditLog)})
	 * @param passthrough whether a mount logs in to its backend as the user
	 * @param explicitTls whether {@code AUTH TLS} is offered
	 * @param tls whether TLS is available (explicit or implicit)
	 * @param tlsRequired whether logins and data must be encrypted
	 * @param activeMode whether {@code PORT}/{@code EPRT} are allowed
	 * @param externalAddress the address {@code PASV} announces, or {@code null}
	 */
	public record Settings(Authenticator authenticator, StorageFileSystemFactory fileSystems, Audit audit,
			boolean passthrough, boolean explicitTls, boolean tls, boolean tlsRequired, boolean activeMode,
			@Nullable InetAddress externalAddress) {
	}

}
