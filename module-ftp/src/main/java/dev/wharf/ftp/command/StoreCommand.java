package dev.wharf.ftp.command;

import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.Audit;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.ftp.data.DataChannel;
import dev.wharf.ftp.data.TransferInterruptedException;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code STOR}, {@code APPE} and {@code STOU}: receive a file through the storage layer.
 * A {@code STOR} is atomic: the file appears (or replaces the old one) only once
 * complete, and an upload that is aborted, reset, stalled, cut off under TLS (no
 * {@code close_notify}), or whose control connection closed, leaves nothing.
 * {@code APPE}, and {@code STOR} after {@code REST} (resuming at the file's current
 * size), append, and only where the mount can append; elsewhere they get {@code 504}.
 *
 * <p>
 * Plain FTP cannot tell a complete upload from a client that died: both close the data
 * connection. A dying client's control connection closes at the same moment, so a plain
 * upload is committed only after a short pause in which the control connection is still
 * open.
 */
final class StoreCommand extends WharfCommand {

	/**
	 * How long a plain upload waits, after its end, for a sign that the client died
	 * instead: long enough for a loaded machine to handle the control connection's close
	 * first (docs/benchmarks/ftp.md, "Figures behind FTP's constants"). Each plain upload
	 * pays it in latency; FTPS ({@code close_notify}) does not.
	 */
	static final Duration PLAIN_UPLOAD_SETTLE = Duration.ofMillis(100);

	/** Which of the three commands. */
	enum Kind {

		STOR, APPE, STOU

	}

	private final Kind kind;

	private final DataTransfer transfers;

	private final Audit audit;

	/**
	 * Creates the command.
	 * @param kind which command
	 * @param transfers the data connection handling
	 * @param audit records uploads
	 */
	StoreCommand(Kind kind, DataTransfer transfers, Audit audit) {
		this.kind = kind;
		this.transfers = transfers;
		this.audit = audit;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		long offset = session.fileOffset();
		session.resetState();
		if (!this.transfers.ready(session)) {
			return;
		}
		String argument = request.argument();
		if (this.kind == Kind.STOU) {
			String prefix = (argument != null) ? argument : "upload";
			argument = prefix + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
		}
		MountLocation.InMount in = changeable(session, argument);
		if (in == null) {
			this.transfers.giveUp(session);
			return;
		}
		String path = in.virtualPath().toString();
		boolean appending = this.kind == Kind.APPE || offset > 0;
		if (!in.mount().access().canWrite()) {
			this.transfers.giveUp(session);
			session.reply(550, path + ": Permission denied.");
			return;
		}
		if (appending && !in.mount().storage().capabilities().contains(Capability.APPEND)) {
			this.transfers.giveUp(session);
			session.reply(504, path
					+ ": This mount cannot append to files, so APPE and resumed uploads (REST) are not available; upload the whole file with STOR.");
			return;
		}
		WriteOptions options = (this.kind == Kind.STOU) ? WriteOptions.createNew()
				: appending ? WriteOptions.append() : WriteOptions.replace();
		Mono<Reply> checks = folderExists(in).switchIfEmpty((offset > 0) ? resumable(in, offset, path) : Mono.empty());
		String opening = (this.kind == Kind.STOU) ? "FILE: " + in.path().name() : "Ready to receive " + path + ".";
		this.transfers.start(session, checks, opening, channel -> this.audit
			.recorded(session.userName(), session.clientAddress(), (this.kind == Kind.APPE) ? "append" : "write",
					auditTarget(in), in.mount().storage().write(in.path(), upload(session, channel), options))
			.map(written -> Reply.of(226, "Transfer complete (" + path + ", " + written.size() + " bytes).")), path);
	}

	/**
	 * The folder an upload goes into must exist. Checked before {@code 150}, so that the
	 * refusal comes before the client uses the data connection: refused after
	 * {@code 150}, a {@code PROT P} client is still in its TLS handshake when the
	 * connection closes, and sees a TLS failure instead of the reply.
	 */
	private static Mono<Reply> folderExists(MountLocation.InMount in) {
		StoragePath parent = in.path().parent();
		StoragePath virtualParent = in.virtualPath().parent();
		if (parent == null || parent.isRoot() || virtualParent == null
				|| !in.mount().storage().capabilities().contains(Capability.DIRECTORIES)) {
			return Mono.empty();
		}
		return in.mount()
			.storage()
			.stat(parent)
			.flatMap(entry -> entry.isDirectory() ? Mono.<Reply>empty()
					: Mono.just(Reply.of(550, virtualParent + ": Not a folder.")))
			.onErrorResume(NotFoundException.class,
					missing -> Mono.just(Reply.of(550, virtualParent + ": No such folder.")));
	}

	/** A {@code STOR} after {@code REST} resumes only at the file's current end. */
	private static Mono<Reply> resumable(MountLocation.InMount in, long offset, String path) {
		return in.mount()
			.storage()
			.stat(in.path())
			.flatMap(entry -> (entry.isFile() && entry.size() == offset) ? Mono.<Reply>empty()
					: Mono.just(Reply.of(554,
							"Restart position " + offset + " does not match the size of " + path + " (" + entry.size()
									+ " bytes): uploads resume at the end of the file.")))
			.onErrorResume(NotFoundException.class,
					missing -> Mono.just(Reply.of(554, path + ": No partial file to resume; send STOR without REST.")));
	}

	private static Flux<DataBuffer> upload(FtpSession session, DataChannel channel) {
		Flux<DataBuffer> received = channel.receive(channel.bufferFactory());
		if (channel.isSecure()) {
			return received;
		}
		return received.concatWith(Mono.delay(PLAIN_UPLOAD_SETTLE)
			.then(Mono.defer(() -> stillConnected(session) ? Mono.empty() : Mono
				.error(new TransferInterruptedException("The control connection closed during the upload", null)))));
	}

	private static boolean stillConnected(FtpSession session) {
		return session.isOpen() && !session.context().isClosed();
	}

}
