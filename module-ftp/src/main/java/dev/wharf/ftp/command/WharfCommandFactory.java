package dev.wharf.ftp.command;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.storage.Capability;
import dev.wharf.ftp.filesystem.StorageFileSystemFactory;
import org.apache.ftpserver.command.Command;
import org.apache.ftpserver.command.CommandFactory;
import org.apache.ftpserver.command.impl.ACCT;
import org.apache.ftpserver.command.impl.AUTH;
import org.apache.ftpserver.command.impl.HELP;
import org.apache.ftpserver.command.impl.NOOP;
import org.apache.ftpserver.command.impl.OPTS;
import org.apache.ftpserver.command.impl.PBSZ;
import org.apache.ftpserver.command.impl.REST;
import org.apache.ftpserver.command.impl.STRU;
import org.apache.ftpserver.command.impl.SYST;
import org.apache.ftpserver.command.impl.TYPE;
import org.jspecify.annotations.Nullable;

/**
 * The commands Wharf's FTP server answers. Apache FtpServer's own implementations are kept where they only
 * change session state ({@code AUTH}, {@code PBSZ}, {@code TYPE}, {@code REST}, {@code OPTS}, ...); everything
 * that touches files, data connections or logins is Wharf's. Not offered (answered {@code 502}): {@code SITE}
 * commands other than {@code UTIME}, {@code MD5}/{@code MMD5} (a whole download on the server), {@code LANG},
 * {@code REIN}, {@code MODE Z}. Immutable and thread-safe.
 */
public final class WharfCommandFactory implements CommandFactory {

	private final Map<String, Command> commands;

	/**
	 * Builds the commands.
	 * @param settings what the commands depend on
	 */
	public WharfCommandFactory(Settings settings) {
		DataTransfer transfers = new DataTransfer(settings.tlsRequired());
		Audit audit = new Audit(settings.audit());
		Map<String, Command> map = new HashMap<>();
		map.put("ABOR", new SimpleCommands.Abort());
		map.put("ACCT", new ACCT());
		map.put("ALLO", new SimpleCommands.Allocate());
		map.put("APPE", new StoreCommand(StoreCommand.Kind.APPE, transfers, audit));
		map.put("AUTH", new AUTH());
		map.put("CDUP", new CwdCommand(true));
		map.put("CWD", new CwdCommand(false));
		map.put("DELE", new DeleteCommand(false, audit));
		map.put("EPRT", new ActiveCommand(true, settings.activeMode()));
		map.put("EPSV", new PassiveCommand(true, settings.externalAddress()));
		map.put("FEAT", new FeatCommand(settings.explicitTls(), settings.tls(), settings.activeMode(),
				settings.fileSystems().anyMountCan(Capability.MODIFICATION_TIME)));
		map.put("HELP", new HELP());
		map.put("LIST", new ListCommand(ListCommand.Kind.LIST, transfers));
		map.put("MDTM", new FileInfoCommand(FileInfoCommand.Kind.MDTM));
		map.put("MFMT", new ModificationTimeCommand(ModificationTimeCommand.Kind.MFMT, audit));
		map.put("MKD", new MkdCommand(audit));
		map.put("MLSD", new ListCommand(ListCommand.Kind.MLSD, transfers));
		map.put("MLST", new FileInfoCommand(FileInfoCommand.Kind.MLST));
		map.put("MODE", new SimpleCommands.Mode());
		map.put("NLST", new ListCommand(ListCommand.Kind.NLST, transfers));
		map.put("NOOP", new NOOP());
		map.put("OPTS", new OPTS());
		map.put("PASS", new PassCommand(settings.authenticator(), settings.fileSystems(), settings.passthrough()));
		map.put("PASV", new PassiveCommand(false, settings.externalAddress()));
		map.put("PBSZ", new PBSZ());
		map.put("PORT", new ActiveCommand(false, settings.activeMode()));
		map.put("PROT", new SimpleCommands.Prot(settings.tlsRequired()));
		map.put("PWD", new PwdCommand());
		map.put("QUIT", new SimpleCommands.Quit());
		map.put("REST", new REST());
		map.put("RETR", new RetrieveCommand(transfers));
		map.put("RMD", new DeleteCommand(true, audit));
		map.put("RNFR", new RenameCommand(false, audit));
		map.put("RNTO", new RenameCommand(true, audit));
		map.put("SITE", new ModificationTimeCommand(ModificationTimeCommand.Kind.SITE, audit));
		map.put("SIZE", new FileInfoCommand(FileInfoCommand.Kind.SIZE));
		map.put("STAT", new StatCommand());
		map.put("STOR", new StoreCommand(StoreCommand.Kind.STOR, transfers, audit));
		map.put("STOU", new StoreCommand(StoreCommand.Kind.STOU, transfers, audit));
		map.put("STRU", new STRU());
		map.put("SYST", new SYST());
		map.put("TYPE", new TYPE());
		map.put("USER", new UserCommand());
		this.commands = Map.copyOf(map);
	}

	@Override
	public @Nullable Command getCommand(String name) {
		return this.commands.get(name);
	}

	/**
	 * What the commands depend on.
	 *
	 * @param authenticator logs users in
	 * @param fileSystems each user's view of the mounts
	 * @param audit the audit log
	 * @param passthrough whether a mount logs in to its backend as the user
	 * @param explicitTls whether {@code AUTH TLS} is offered
	 * @param tls whether TLS is available (explicit or implicit)
	 * @param tlsRequired whether logins and data must be encrypted
	 * @param activeMode whether {@code PORT}/{@code EPRT} are allowed
	 * @param externalAddress the address {@code PASV} announces, or {@code null}
	 */
	public record Settings(Authenticator authenticator, StorageFileSystemFactory fileSystems, AuditLog audit,
			boolean passthrough, boolean explicitTls, boolean tls, boolean tlsRequired, boolean activeMode,
			@Nullable InetAddress externalAddress) {
	}

}
