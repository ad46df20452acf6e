package dev.wharf.ftp.command;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.ftp.data.DataChannel;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import reactor.core.publisher.Mono;

/**
 * {@code RETR}: sends a file, from the offset of a preceding {@code REST}. Files of
 * mounts that have them on this host go out with the kernel's zero-copy {@code sendfile}
 * (not under TLS); others stream through the storage layer in large buffers.
 * {@code TYPE A} transfers the bytes unchanged, as vsftpd does by default.
 */
final class RetrieveCommand extends WharfCommand {

	private final DataTransfer transfers;

	/**
	 * Creates the command.
	 * @param transfers the data connection handling
	 */
	RetrieveCommand(DataTransfer transfers) {
		this.transfers = transfers;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		long offset = session.fileOffset();
		session.resetState();
		if (!this.transfers.ready(session)) {
			return;
		}
		MountLocation.InMount in = inMount(session, request.argument());
		if (in == null) {
			this.transfers.giveUp(session);
			return;
		}
		String path = in.virtualPath().toString();
		Mono<Reply> checks = in.mount().storage().stat(in.path()).flatMap(entry -> {
			if (!entry.isFile()) {
				return Mono.just(Reply.of(550, path + ": Not a plain file."));
			}
			if (offset > entry.size()) {
				return Mono.just(Reply.of(554, "Restart position " + offset + " is past the end of " + path + " ("
						+ entry.size() + " bytes)."));
			}
			return Mono.empty();
		});
		this.transfers.start(session, checks, "Opening data connection for " + path + ".",
				channel -> send(channel, in, offset)
					.map(bytes -> Reply.of(226, "Transfer complete (" + bytes + " bytes).")),
				path);
	}

	private static Mono<Long> send(DataChannel channel, MountLocation.InMount in, long offset) {
		Mono<Long> streamed = Mono
			.defer(() -> channel.send(in.mount().storage().read(in.path(), ByteRange.from(offset))));
		if (channel.isSecure() || !in.mount().storage().capabilities().contains(Capability.LOCAL_FILE)) {
			return streamed;
		}
		return in.mount()
			.storage()
			.localFile(in.path())
			.flatMap(file -> channel.sendFile(file, offset))
			.switchIfEmpty(streamed);
	}

}
