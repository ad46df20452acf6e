package dev.wharf.ftp.command;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code LIST}, {@code NLST} and {@code MLSD}: a folder's entries over the data
 * connection, streamed in batches of lines.
 */
final class ListCommand extends WharfCommand {

	private static final int LINES_PER_BUFFER = 256;

	/** Which of the three commands. */
	enum Kind {

		LIST, NLST, MLSD

	}

	private final Kind kind;

	private final DataTransfer transfers;

	/**
	 * Creates the command.
	 * @param kind which command
	 * @param transfers the data connection handling
	 */
	ListCommand(Kind kind, DataTransfer transfers) {
		this.kind = kind;
		this.transfers = transfers;
	}

	@Override
	public void execute(FtpSession session, CommandLine request) {
		session.resetState();
		if (!this.transfers.ready(session)) {
			return;
		}
		String argument = (this.kind == Kind.MLSD) ? request.argument()
				: ListingEntries.withoutOptions(request.argument());
		MountLocation location = (argument == null) ? session.files().locate((String) null) : locate(session, argument);
		if (location == null) {
			this.transfers.giveUp(session);
			return;
		}
		String path = location.virtualPath().toString();
		Instant now = Instant.now();
		List<String> facts = Listings.chosenFacts(session.chosenFacts());
		Function<Listings.Listed, String> format = switch (this.kind) {
			case LIST -> listed -> Listings.list(listed, now);
			case NLST -> Listings::name;
			case MLSD -> listed -> Listings.facts(listed, facts) + listed.name() + "\r\n";
		};
		// The path is checked before 150, so a missing folder gets 550 and no data
		// connection.
		AtomicReference<Flux<Listings.Listed>> entries = new AtomicReference<>(Flux.empty());
		Mono<Reply> checks = ListingEntries.prepare(location, this.kind == Kind.MLSD)
			.doOnNext(entries::set)
			.then(Mono.<Reply>empty())
			.onErrorResume(ListingEntries.NotAFolder.class,
					notAFolder -> Mono.just(Reply.of(501, path + ": Not a folder.")));
		this.transfers.start(session, checks, "Here comes the listing of " + path + ".",
				channel -> channel
					.send(listing(entries).map(format).buffer(LINES_PER_BUFFER).map(ListCommand::toBuffer))
					.map(bytes -> Reply.of(226, "Listing sent.")),
				path);
	}

	private static Flux<Listings.Listed> listing(AtomicReference<Flux<Listings.Listed>> entries) {
		// It starts as an empty listing and is only ever set to a prepared one.
		return Objects.requireNonNull(entries.get(), "No listing");
	}

	private static DataBuffer toBuffer(List<String> lines) {
		return DefaultDataBufferFactory.sharedInstance.wrap(String.join("", lines).getBytes(StandardCharsets.UTF_8));
	}

}
